import pg from 'pg';

/**
 * The oldest pg-boss schema the installed pg-boss migrates from: 25, pg-boss 11's. pg-boss 10's
 * (24) it refuses, which would stop every instance at start.
 */
export const OLDEST_MIGRATED_SCHEMA = 25;

/** Held while one instance looks at (and perhaps sets aside) the job schema: any number that stays the same. */
const SCHEMA_LOCK = 727_274_010;

/**
 * Sets aside a pg-boss schema too old for the installed pg-boss to migrate (renamed to
 * `<schema>_v<version>_<time>`, kept for inspection), so pg-boss makes a new one. No work is lost: every
 * media job is derived from the data (items still waiting are queued again at start and by the
 * sweep). Answers the name it was set aside under, or null when the schema was absent or current.
 */
export async function setAsideOldSchema(connectionString: string, schema: string): Promise<string | null> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
    const { rows } = await client.query<{ present: string | null }>('SELECT to_regclass($1) AS present', [
      `${schema}.version`,
    ]);
    let asideAs: string | null = null;
    if (rows[0]?.present) {
      const version = await client.query<{ version: number }>(
        `SELECT version FROM ${pg.escapeIdentifier(schema)}.version LIMIT 1`,
      );
      const found = version.rows[0]?.version;
      if (typeof found === 'number' && found < OLDEST_MIGRATED_SCHEMA) {
        asideAs = `${schema}_v${found}_${Date.now()}`;
        await client.query(`ALTER SCHEMA ${pg.escapeIdentifier(schema)} RENAME TO ${pg.escapeIdentifier(asideAs)}`);
      }
    }
    await client.query('COMMIT');
    return asideAs;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}

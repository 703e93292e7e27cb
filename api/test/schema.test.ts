/**
 * db/schema.ts is typed by hand: this holds it to the database the migrations make, on the run's
 * engine. Same tables and columns; each column's type, whether it may be null, and whether an
 * insert may leave it out (Generated<...>) as the database has it (a default, a self-numbering id).
 */
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, type Engine, openDatabase } from '../src/db/database.js';
import { useFreshDatabase } from './databases.js';

interface Column {
  type: string;
  nullable: boolean;
  generated: boolean;
}
type Tables = Record<string, Record<string, Column>>;

/** The Schema interface as the compiler reads it. */
function typedSchema(): Tables {
  const schemaFile = fileURLToPath(new URL('../src/db/schema.ts', import.meta.url));
  const config = ts.getParsedCommandLineOfConfigFile(
    fileURLToPath(new URL('../tsconfig.json', import.meta.url)),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('api/tsconfig.json could not be read');
  const program = ts.createProgram([schemaFile], config.options);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(schemaFile);
  const module = source && checker.getSymbolAtLocation(source);
  const schema = module && checker.getExportsOfModule(module).find((symbol) => symbol.name === 'Schema');
  if (!schema) throw new Error('db/schema.ts exports no Schema');
  const parts = (type: ts.Type) => (type.isUnion() ? type.types : [type]);
  // Generated<T> (Kysely's ColumnType) carries the selected and the inserted type as properties.
  const facet = (type: ts.Type, name: '__select__' | '__insert__') => {
    const property = type.getProperty(name);
    return property ? checker.getTypeOfSymbol(property) : type;
  };
  const kind = (type: ts.Type) => {
    const present = parts(type).filter((part) => !(part.flags & ts.TypeFlags.Null));
    if (present.every((part) => part.flags & ts.TypeFlags.StringLike)) return 'text';
    if (present.every((part) => part.flags & ts.TypeFlags.NumberLike)) return 'number';
    return checker.typeToString(type);
  };
  const tables: Tables = {};
  for (const table of checker.getDeclaredTypeOfSymbol(schema).getProperties()) {
    const columns: Record<string, Column> = {};
    for (const column of checker.getTypeOfSymbol(table).getProperties()) {
      const declared = checker.getTypeOfSymbol(column);
      const selected = facet(declared, '__select__');
      columns[column.name] = {
        type: kind(selected),
        nullable: parts(selected).some((part) => part.flags & ts.TypeFlags.Null),
        generated: parts(facet(declared, '__insert__')).some((part) => part.flags & ts.TypeFlags.Undefined),
      };
    }
    tables[table.name] = columns;
  }
  return tables;
}

/** The tables as the migrated database has them (Kysely's own tables left out). */
async function migratedSchema({ db, engine }: Database): Promise<Tables> {
  const tables: Tables = {};
  for (const table of await db.introspection.getTables()) {
    const keys = await primaryKeyColumns(db, engine, table.name);
    const columns: Record<string, Column> = {};
    for (const column of table.columns)
      columns[column.name] = {
        type: /^text$/i.test(column.dataType)
          ? 'text'
          : /^(integer|int4|int8|real|float8)$/i.test(column.dataType)
            ? 'number'
            : column.dataType,
        // SQLite lets a primary key that is not INTEGER hold NULL (kept for compatibility) unless
        // also declared NOT NULL; no statement here writes one, and PostgreSQL refuses it.
        nullable: column.isNullable && !keys.includes(column.name),
        generated: column.hasDefaultValue || column.isAutoIncrementing,
      };
    tables[table.name] = columns;
  }
  return tables;
}

async function primaryKeyColumns(db: Database['db'], engine: Engine, table: string): Promise<string[]> {
  if (engine === 'postgres') return [];
  const rows = await sql<{ name: string }>`SELECT name FROM pragma_table_info(${table}) WHERE pk > 0`.execute(db);
  return rows.rows.map((row) => row.name);
}

/** Where the two disagree, one line each. */
function differences(typed: Tables, migrated: Tables): string[] {
  const found: string[] = [];
  for (const table of new Set([...Object.keys(typed), ...Object.keys(migrated)])) {
    const [inType, inDb] = [typed[table], migrated[table]];
    if (!inType || !inDb) {
      found.push(`${table}: ${inType ? 'in schema.ts, not in the database' : 'in the database, not in schema.ts'}`);
      continue;
    }
    for (const column of new Set([...Object.keys(inType), ...Object.keys(inDb)])) {
      const [a, b] = [inType[column], inDb[column]];
      if (!a || !b) found.push(`${table}.${column}: ${a ? 'in schema.ts' : 'in the database'} only`);
      else if (JSON.stringify(a) !== JSON.stringify(b))
        found.push(`${table}.${column}: schema.ts ${JSON.stringify(a)}, the database ${JSON.stringify(b)}`);
    }
  }
  return found;
}

describe('schema.ts and the migrated database', () => {
  const fresh = useFreshDatabase();
  let database: Database;
  let typed: Tables;
  beforeAll(async () => {
    database = await openDatabase(fresh().target);
    typed = typedSchema();
  });
  afterAll(() => database?.close());

  it('agree on every table and column: type, null or not, and whether an insert may leave it out', async () => {
    expect(Object.keys(typed)).toContain('users');
    expect(typed.users?.id).toEqual({ type: 'number', nullable: false, generated: true });
    expect(typed.users?.profile_picture).toEqual({ type: 'text', nullable: true, generated: false });
    expect(differences(typed, await migratedSchema(database))).toEqual([]);
  });

  it('disagree once a migration adds what schema.ts lacks', async () => {
    await database.db.schema.alterTable('users').addColumn('nickname', 'text').execute();
    await database.db.schema.createTable('extras').addColumn('note', 'text').execute();
    expect(differences(typed, await migratedSchema(database))).toEqual(
      expect.arrayContaining(['users.nickname: in the database only', 'extras: in the database, not in schema.ts']),
    );
  });
});

// `pnpm releases [--since 24h] [--report <file>]`: what is live (and each remote's webhook), the
// history (unreadable figures and webhooks' calls included), then the real-user figures per
// remote and version (and, with --report, the same as an HTML page).
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { messageOf } from '@marketplace/shared/errors';
import { PLATFORM } from '@marketplace/shared/node/platform';
import { optionIn } from './cli-args.mjs';
import { apiAccess, fetchFigures, figureLines, sinceTime } from './figures.mjs';
import { htmlReport } from './report.mjs';
import { readDiscovery, readHistory } from './store.mjs';
import { readWebhooks, webhookOrigin } from './webhook.mjs';

/** @param {import('./cli-args.mjs').Invocation} invocation */
export async function listCommand({ store, root, name, rest }) {
  const doc = readDiscovery(store);
  const remotes = Object.keys(PLATFORM.remotes);
  // No remote is named here: the first option stands where the remote would.
  const allArgs = [name, ...rest].filter((a) => a !== undefined);
  const listOption = (/** @type {string} */ flag) => optionIn(allArgs, flag);
  let since = '';
  try {
    since = sinceTime(listOption('--since') ?? '24h');
  } catch (error) {
    console.error(messageOf(error));
    process.exit(2);
  }
  const webhooks = readWebhooks(store);
  console.log('live:');
  for (const remote of Object.keys(PLATFORM.remotes)) {
    const entry = doc.remotes[remote];
    const canary = entry?.canary ? `  canary ${entry.canary.version} for ${entry.canary.percent} %` : '';
    const webhook = webhooks[remote] ? `  webhook ${webhookOrigin(webhooks[remote])}` : '';
    console.log(`  ${remote.padEnd(12)} ${entry?.live?.version ?? '(not released)'}${canary}${webhook}`);
  }
  console.log('history:');
  const history = readHistory(store);
  for (const e of history) {
    const what =
      e.action === 'watch'
        ? `${e.decision} at ${e.percent} %`
        : e.action === 'policy'
          ? e.to
            ? 'watched'
            : 'set for the next canaries'
          : e.action === 'bake'
            ? `${e.decision}`
            : e.action === 'webhook'
              ? `${e.kind} ${e.result}`
              : e.action === 'unreadable'
                ? `${e.streak} in a row`
                : e.result;
    console.log(
      `  ${e.time}  ${e.remote.padEnd(12)} ${e.action.padEnd(10)} ${e.from ?? '-'} -> ${e.to ?? '-'}  ${what}${e.reason ? `: ${e.reason}` : ''}${e.smoke === 'skipped' ? '  (smoke load skipped)' : ''}`,
    );
  }
  const api = apiAccess(process.env, root);
  try {
    const answer = await fetchFigures(api, since);
    const table = figureLines(doc, answer.figures, remotes);
    console.log(`real-user figures since ${since} (page loads that used each version; p75 of their page's vitals):`);
    for (const line of table) console.log(line);
    const report = listOption('--report');
    if (report) {
      writeFileSync(
        report,
        htmlReport({ generated: new Date().toISOString(), since, remotes, doc, table, series: answer.series, history }),
      );
      console.log(`report: ${resolve(report)}`);
    }
  } catch (error) {
    console.log(
      `real-user figures: not available from the API at ${api.url} (${messageOf(error)}); set PLATFORM_API_URL and ADMIN_TOKEN`,
    );
  }
}

// The operator's page (issue "Releases that watch themselves", item 3): `pnpm releases --report
// <file>` writes one self-contained HTML file with, per remote, its versions' error rate and p75
// LCP over time as charts (inline SVG, no script, no third party), the figures table and the
// history's decisions.

/** @param {unknown} value */
const escape = (value) =>
  String(value).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

const COLOURS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2'];
const WIDTH = 560;
const HEIGHT = 160;
const PAD = 36;

/**
 * One line chart: a line per version over the same time axis.
 * @param {string} title
 * @param {{ label: string, points: { t: number, v: number }[] }[]} lines
 * @param {(v: number) => string} format
 */
function chart(title, lines, format) {
  const all = lines.flatMap((l) => l.points);
  if (all.length === 0)
    return `<figure><figcaption>${escape(title)}</figcaption><p>No page loads in the window.</p></figure>`;
  const t0 = Math.min(...all.map((p) => p.t));
  const t1 = Math.max(...all.map((p) => p.t), t0 + 1);
  const top = Math.max(...all.map((p) => p.v), 0) || 1;
  const x = (/** @type {number} */ t) => PAD + ((t - t0) / (t1 - t0)) * (WIDTH - 2 * PAD);
  const y = (/** @type {number} */ v) => HEIGHT - PAD / 2 - (v / top) * (HEIGHT - PAD);
  const paths = lines
    .map((line, i) => {
      const colour = COLOURS[i % COLOURS.length];
      const d = line.points.map((p, j) => `${j ? 'L' : 'M'}${x(p.t).toFixed(1)},${y(p.v).toFixed(1)}`).join(' ');
      const dots = line.points
        .map(
          (p) =>
            `<circle cx="${x(p.t).toFixed(1)}" cy="${y(p.v).toFixed(1)}" r="2.5" fill="${colour}"><title>${escape(`${line.label}: ${format(p.v)} at ${new Date(p.t).toISOString()}`)}</title></circle>`,
        )
        .join('');
      return `<path d="${d}" fill="none" stroke="${colour}" stroke-width="2"/>${dots}`;
    })
    .join('');
  const legend = lines
    .map((line, i) => `<span style="color:${COLOURS[i % COLOURS.length]}">■ ${escape(line.label)}</span>`)
    .join(' ');
  return `<figure><figcaption>${escape(title)}</figcaption>
<svg role="img" aria-label="${escape(title)}" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}">
<line x1="${PAD}" y1="${y(0)}" x2="${WIDTH - PAD}" y2="${y(0)}" stroke="#ccc"/>
<text x="2" y="${y(top) + 4}" font-size="10">${escape(format(top))}</text><text x="2" y="${y(0)}" font-size="10">0</text>
<text x="${PAD}" y="${HEIGHT - 2}" font-size="10">${escape(new Date(t0).toISOString().slice(0, 16))}</text>
<text x="${WIDTH - PAD}" y="${HEIGHT - 2}" font-size="10" text-anchor="end">${escape(new Date(t1).toISOString().slice(0, 16))}</text>
${paths}</svg><div>${legend}</div></figure>`;
}

/**
 * @param {{ generated: string, since: string, remotes: string[], doc: { remotes: Record<string, { live?: { version: string }, canary?: { version: string, percent: number } }> }, table: string[], series: import('./figures.mjs').SeriesPoint[], history: import('./store.mjs').HistoryEntry[] }} input
 */
export function htmlReport({ generated, since, remotes, doc, table, series, history }) {
  const sections = remotes.map((remote) => {
    const entry = doc.remotes[remote];
    const role = (/** @type {string} */ v) =>
      v === entry?.live?.version
        ? ' (live)'
        : v === entry?.canary?.version
          ? ` (canary ${entry.canary.percent} %)`
          : '';
    const versions = [...new Set(series.filter((p) => p.remote === remote).map((p) => p.version))];
    const lines = (/** @type {(p: import('./figures.mjs').SeriesPoint) => number | null} */ pick) =>
      versions.map((version) => ({
        label: `${version}${role(version)}`,
        points: series
          .filter((p) => p.remote === remote && p.version === version && pick(p) !== null)
          .map((p) => ({ t: Date.parse(p.start), v: /** @type {number} */ (pick(p)) })),
      }));
    return `<section><h2>${escape(remote)}</h2>
${chart(
  `${remote}: share of page loads with an error`,
  lines((p) => p.errorRate),
  (v) => `${(v * 100).toFixed(1)} %`,
)}
${chart(
  `${remote}: p75 LCP of the page loads that used it`,
  lines((p) => p.p75Lcp),
  (v) => `${Math.round(v)} ms`,
)}
</section>`;
  });
  const decisions = history
    .filter((e) => e.action !== 'release' || e.result !== 'refused')
    .slice(-40)
    .reverse()
    .map(
      (e) =>
        `<tr><td>${escape(e.time)}</td><td>${escape(e.remote)}</td><td>${escape(e.action)}${e.decision ? `: ${escape(e.decision)}` : ''}</td><td>${escape(e.from ?? '-')} → ${escape(e.to ?? '-')}</td><td>${escape(e.reason ?? '')}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Releases: real-user figures</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:14px system-ui,sans-serif;margin:24px;color:#111}figure{display:inline-block;margin:8px 16px 8px 0}figcaption{font-weight:600;margin-bottom:4px}pre{background:#f6f6f6;padding:12px;overflow:auto}table{border-collapse:collapse}td{border-top:1px solid #ddd;padding:4px 8px;vertical-align:top}</style>
</head><body>
<h1>Releases: real-user figures per remote version</h1>
<p>Page loads since ${escape(since)}, generated ${escape(generated)}. Each line is a version; the canary's line beside live's shows what it changes.</p>
${sections.join('\n')}
<h2>Figures</h2><pre>${escape(table.join('\n'))}</pre>
<h2>Latest releases and decisions</h2><table>${decisions}</table>
</body></html>
`;
}

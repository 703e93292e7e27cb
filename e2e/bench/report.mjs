// The benchmark's report: medians, server-rendered federated / single-bundle ratios (the
// client-rendered federated build beside them), Markdown and an SVG chart.

/** The builds compared: the federated page as served (rendered by its page server), the same build rendered in the browser only, the single bundle. */
export const VARIANTS = ['federated', 'client', 'single'];

/** The figures recorded per load, with how to show them. */
export const METRICS = [
  { key: 'jsBytes', label: 'JS (KB, compressed)', format: (v) => (v / 1024).toFixed(1) },
  { key: 'imageBytes', label: 'images (KB)', format: (v) => (v / 1024).toFixed(1) },
  { key: 'requests', label: 'requests', format: (v) => String(Math.round(v)) },
  { key: 'federation', label: 'federation requests', format: (v) => String(Math.round(v)) },
  { key: 'fcp', label: 'FCP (ms)', format: (v) => String(Math.round(v)) },
  { key: 'header', label: 'header visible (ms)', format: (v) => String(Math.round(v)) },
  { key: 'main', label: 'main content (ms)', format: (v) => String(Math.round(v)) },
  { key: 'lcp', label: 'LCP (ms)', format: (v) => String(Math.round(v)) },
  { key: 'tbt', label: 'TBT (ms)', format: (v) => String(Math.round(v)) },
  { key: 'depth', label: 'critical path (requests)', format: (v) => String(v) },
  { key: 'cls', label: 'CLS', format: (v) => v.toFixed(3) },
];

/**
 * Cumulative layout shift as Chromium's web-vitals define it: shifts not caused by input, grouped
 * in session windows (a gap under 1 s, at most 5 s long); the worst window's sum.
 * @param {[number, number][]} shifts each shift's start time (ms) and value, in order
 */
export function cumulativeLayoutShift(shifts) {
  let worst = 0;
  let sum = 0;
  let first = -Infinity;
  let last = -Infinity;
  for (const [time, value] of shifts) {
    if (time - last < 1000 && time - first < 5000) sum += value;
    else {
      sum = value;
      first = time;
    }
    last = time;
    worst = Math.max(worst, sum);
  }
  return worst;
}

/**
 * The longest chain of requests up to the main content in which each starts only after the one
 * before it finished: how many round trips one after another the page waited for. Requests are
 * `{ url, start, end }` in seconds (CDP timestamps; a request still open has end Infinity),
 * the first being the page itself; `mainMs` is when the main content appeared, from navigation.
 * @param {{ url: string, start: number, end: number }[]} requests
 * @param {number} mainMs
 */
export function criticalPathDepth(requests, mainMs) {
  const sorted = [...requests].sort((a, b) => a.start - b.start);
  const origin = sorted[0]?.start ?? 0;
  const before = sorted.filter((r) => (r.start - origin) * 1000 <= mainMs);
  /** @type {{ depth: number, previous: number }[]} */
  const best = [];
  before.forEach((r, i) => {
    let depth = 1;
    let previous = -1;
    for (let j = 0; j < i; j++) {
      if (before[j].end <= r.start && best[j].depth + 1 > depth) {
        depth = best[j].depth + 1;
        previous = j;
      }
    }
    best.push({ depth, previous });
  });
  let last = best.reduce((top, b, i) => (b.depth > (best[top]?.depth ?? 0) ? i : top), -1);
  const chain = [];
  for (; last >= 0; last = best[last].previous) chain.unshift(new URL(before[last].url).pathname.slice(0, 60));
  return { depth: chain.length, chain };
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Medians per scenario, variant and metric, and the federated / single ratio of each. */
export function summarize(scenarios, samples, meta) {
  return {
    ...meta,
    scenarios: scenarios.map((s) => {
      const metrics = {};
      for (const { key } of METRICS) {
        const [federated, client, single] = VARIANTS.map((v) => median(samples[s.id][v].map((x) => x[key])));
        metrics[key] = { federated, client, single, ratio: single > 0 ? federated / single : null };
      }
      return { id: s.id, title: s.title, metrics };
    }),
  };
}

const ratioText = (r) => (r === null ? 'n/a' : `${r.toFixed(2)}×`);

/**
 * The targets, per scenario, of the federated page as served against the single bundle: first
 * contentful paint and LCP at most 0.6× (issue "Pages that arrive rendered"); main content at
 * most 1.05×, header at most 1.10×, a critical path no deeper, JS at most 1.25× on the anonymous
 * home page and 1.15× elsewhere (issue "Composition without a waterfall").
 */
export const TARGETS = [
  { key: 'fcp', label: 'FCP', limit: () => 0.6 },
  { key: 'lcp', label: 'LCP', limit: () => 0.6 },
  { key: 'main', label: 'main content', limit: () => 1.05 },
  { key: 'header', label: 'header visible', limit: () => 1.1 },
  { key: 'depth', label: 'critical path', limit: () => 1.0 },
  { key: 'jsBytes', label: 'JS bytes', limit: (id) => (id === 'home' ? 1.25 : 1.15) },
];

/** Targets on the federated page's own figure, not a ratio (issue 19: no layout shift as data arrives). */
export const ABSOLUTE_TARGETS = [{ key: 'cls', label: 'CLS ≤ 0.1', max: 0.1, format: (v) => v.toFixed(3) }];

/** Each scenario against each target: the ratio, the limit, met or by how much it is missed. */
export function renderTargets(report) {
  const rows = report.scenarios.map((s) => {
    const cells = TARGETS.map((t) => {
      const ratio = s.metrics[t.key]?.ratio;
      if (ratio === null || ratio === undefined) return 'n/a';
      const limit = t.limit(s.id);
      return ratio <= limit
        ? `${ratio.toFixed(2)}× ≤ ${limit.toFixed(2)} met`
        : `${ratio.toFixed(2)}× > ${limit.toFixed(2)} (+${Math.round((ratio / limit - 1) * 100)} %)`;
    });
    const absolute = ABSOLUTE_TARGETS.map((t) => {
      const value = s.metrics[t.key]?.federated;
      if (value === null || value === undefined) return 'n/a';
      return value <= t.max ? `${t.format(value)} met` : `${t.format(value)} (missed)`;
    });
    return `| ${s.title} | ${[...cells, ...absolute].join(' | ')} |`;
  });
  const labels = [...TARGETS, ...ABSOLUTE_TARGETS].map((t) => t.label);
  return [`| scenario | ${labels.join(' | ')} |`, `|---|${labels.map(() => '---').join('|')}|`, ...rows, ''].join('\n');
}

export function renderMarkdown(report) {
  const head = `| scenario | ${METRICS.map((m) => m.label).join(' | ')} |`;
  const rule = `|---|${METRICS.map(() => '---').join('|')}|`;
  const rows = report.scenarios.map(
    (s) =>
      `| ${s.title} | ${METRICS.map((m) => {
        const { federated, client, single, ratio } = s.metrics[m.key];
        return `${m.format(federated)} / ${m.format(client)} / ${m.format(single)} (${ratioText(ratio)})`;
      }).join(' | ')} |`,
  );
  return [
    `Cold loads, median of ${report.runs} runs each: federated rendered on the server / federated rendered in the browser / single bundle (ratio of the first to the last). ${report.network.latency} ms latency, ${Math.round((report.network.downloadThroughput * 8) / 1024 / 1024)} Mbit/s; ${report.date}.`,
    '',
    head,
    rule,
    ...rows,
    '',
    'Against the targets (federated rendered on the server / single-bundle ratio):',
    '',
    renderTargets(report),
  ].join('\n');
}

/** Bars of the federated / single ratio for JS bytes, header and main content, with the targets' limits. */
export function renderChart(report) {
  const keys = [
    { key: 'jsBytes', label: 'JS bytes', color: '#0a66c2' },
    { key: 'header', label: 'header visible', color: '#2e9d5b' },
    { key: 'main', label: 'time to main content', color: '#e8710a' },
  ];
  const rowH = 78;
  const left = 220;
  const width = 760;
  const scale = (width - left - 40) / 2; // ratio 2.0 at the right edge
  const height = 70 + report.scenarios.length * rowH;
  const x = (r) => left + Math.min(r, 2) * scale;
  const bars = report.scenarios
    .map((s, i) => {
      const y = 50 + i * rowH;
      const label = `<text x="${left - 10}" y="${y + 22}" text-anchor="end" font-size="13">${s.title}</text>`;
      const parts = keys.map((k, j) => {
        const r = s.metrics[k.key].ratio ?? 0;
        const by = y + 4 + j * 22;
        return `<rect x="${left}" y="${by}" width="${Math.max(1, x(r) - left)}" height="18" fill="${k.color}"/><text x="${x(r) + 6}" y="${by + 14}" font-size="12">${ratioText(r)}</text>`;
      });
      return [label, ...parts].join('');
    })
    .join('\n');
  const legend = keys
    .map(
      (k, j) =>
        `<rect x="${left + j * 170}" y="12" width="14" height="14" fill="${k.color}"/><text x="${left + j * 170 + 20}" y="24" font-size="13">${k.label}</text>`,
    )
    .join('');
  const guide = (r, text, dash) =>
    `<line x1="${x(r)}" y1="40" x2="${x(r)}" y2="${height - 10}" stroke="#555" stroke-dasharray="${dash}"/><text x="${x(r) + 4}" y="${height - 14}" font-size="11" fill="#555">${text}</text>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="system-ui, sans-serif">
<rect width="100%" height="100%" fill="#fff"/>
${legend}
${guide(1, '1.00 = single bundle', '4 3')}
${guide(1.05, '1.05', '2 2')}
${guide(1.1, '1.10', '2 2')}
${guide(1.25, '1.25', '2 2')}
${bars}
</svg>
`;
}

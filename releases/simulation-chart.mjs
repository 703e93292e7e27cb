// The simulation's chart (docs/canary-simulation.svg), as SVG.
import { DEFAULT_POLICY } from './canary-policy.mjs';

/** @typedef {import('./run-scenario.mjs').ScenarioResult} ScenarioResult */

/**
 * The chart, two panels over the evaluations since the canary started. Above: per scenario, the
 * share of canaries rolled back (solid) or promoted (dashed) by then. Below, on a finer scale: the
 * share of canaries equal to live rolled back by then (false rollbacks), against alpha and against
 * the z test this judge replaced.
 * @param {ScenarioResult[]} results @param {ScenarioResult[]} old the z test's A/A runs
 */
export function chart(results, old, deadline = DEFAULT_POLICY.deadlineIntervals, alpha = DEFAULT_POLICY.alpha) {
  const [width, left, plotW, legendX, legendStep] = [960, 50, 460, 540, 16];
  const colours = [
    '#1b6ac9',
    '#6a3d9a',
    '#7f7f7f',
    '#d62728',
    '#ff7f0e',
    '#bcbd22',
    '#8c564b',
    '#2ca02c',
    '#e377c2',
    '#17becf',
    '#0b3d91',
    '#b15928',
    '#33a02c',
    '#fb9a99',
    '#cab2d6',
    '#666600',
    '#00a087',
    '#e7298a',
    '#a6761d',
    '#1f78b4',
  ];
  const x = (/** @type {number} */ t) => (left + (t / deadline) * plotW).toFixed(1);
  /** @type {string[]} */
  const out = [];
  /**
   * One panel: axes, grid and the lines given.
   * @param {number} top @param {number} plotH @param {number} yMax @param {{ series: number[], colour: string, dash?: boolean }[]} lines @param {string} caption
   */
  const panel = (top, plotH, yMax, lines, caption) => {
    const y = (/** @type {number} */ v) => (top + (1 - Math.min(v, yMax) / yMax) * plotH).toFixed(1);
    for (let k = 0; k <= 4; k++) {
      const v = (yMax * k) / 4;
      out.push(
        `<line x1="${left}" x2="${left + plotW}" y1="${y(v)}" y2="${y(v)}" stroke="#e5e5e5"/><text x="${left - 6}" y="${Number(y(v)) + 4}" text-anchor="end">${Math.round(v * 1000) / 10} %</text>`,
      );
    }
    for (let t = 0; t <= deadline; t += 20)
      out.push(`<text x="${x(t)}" y="${top + plotH + 14}" text-anchor="middle">${t}</text>`);
    out.push(
      `<line x1="${left}" x2="${left}" y1="${top}" y2="${top + plotH}" stroke="#333"/><line x1="${left}" x2="${left + plotW}" y1="${top + plotH}" y2="${top + plotH}" stroke="#333"/>`,
      `<text x="${left + plotW / 2}" y="${top + plotH + 30}" text-anchor="middle">${caption}</text>`,
    );
    for (const line of lines) {
      const d = line.series.map((v, t) => `${t === 0 ? 'M' : 'L'}${x(t)},${y(v)}`).join('');
      out.push(
        `<path d="${d}" fill="none" stroke="${line.colour}" stroke-width="1.6"${line.dash ? ' stroke-dasharray="5 3"' : ''}/>`,
      );
    }
    return y;
  };
  const label = (/** @type {string} */ name) => name.replace('->', '→');

  /** @type {{ series: number[], colour: string, dash?: boolean }[]} */
  const top = [];
  results.forEach((result, i) => {
    const colour = colours[i % colours.length] ?? '#000';
    for (const action of ['rollback', 'promote']) {
      const series = result.byInterval(action);
      if ((series.at(-1) ?? 0) > 0) top.push({ series, colour, dash: action === 'promote' });
    }
    out.push(
      `<rect x="${legendX}" y="${20 + i * legendStep - 8}" width="14" height="3" fill="${colour}"/><text x="${legendX + 20}" y="${20 + i * legendStep - 3}">${label(result.scenario.name)}</text>`,
    );
  });
  panel(20, 300, 1, top, 'evaluations since the canary started: share rolled back (solid) or promoted (dashed)');

  const aa = results.flatMap((result, i) =>
    result.scenario.name.startsWith('A/A')
      ? [{ series: result.byInterval('rollback'), colour: colours[i % colours.length] ?? '#000' }]
      : [],
  );
  const zTest = old
    .filter((result) => result.scenario.name.startsWith('A/A'))
    .map((result) => ({ series: result.byInterval('rollback'), colour: '#000', dash: true }));
  // The lower panel starts below the upper one's legend, however many scenarios it names.
  const lowerTop = Math.max(390, 20 + results.length * legendStep + 30);
  const height = lowerTop + 250;
  const y = panel(
    lowerTop,
    200,
    0.3,
    [...aa, ...zTest],
    'evaluations since the canary started: canaries equal to live rolled back',
  );
  out.push(
    `<line x1="${left}" x2="${left + plotW}" y1="${y(alpha)}" y2="${y(alpha)}" stroke="#d62728" stroke-dasharray="2 2"/><text x="${left + plotW - 4}" y="${Number(y(alpha)) - 4}" text-anchor="end" fill="#d62728">alpha ${alpha * 100} %</text>`,
    `<rect x="${legendX}" y="${lowerTop + 8}" width="14" height="3" fill="#000"/><text x="${legendX + 20}" y="${lowerTop + 13}">the z test it replaced, A/A (dashed)</text>`,
    `<text x="${legendX}" y="${lowerTop + 35}">solid: this judge's A/A scenarios (colours above)</text>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">
<rect width="${width}" height="${height}" fill="#fff"/>
${out.join('\n')}
</svg>
`;
}

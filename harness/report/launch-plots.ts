// The launch report's plots of where a cell's time comes from (pure): Ready
// by position in the round per session, per-session medians beside the
// pooled one, the cold-time breakdown by phase, every launch of the cells the
// cluster rule split, and the differences on a symmetric-log axis with the
// source's intervals over them. Widths fit a 1100 px column.
import type { AnalysisResult } from '../analysis/analysis-result.js';
import type { PlotSpec } from '../publish/plot-adapter.js';
import { formalOk, type LaunchPoint } from './launch-points.js';
import { config, launchFields, launchTooltip, schema, type Plot } from './plot-specs.js';
import type { FindingVerdict } from './source-findings.js';

const tooltip = [...launchTooltip, { field: 'readyMs', type: 'quantitative', title: 'Ready (ms)', format: '.1f' }];

const datum = (p: LaunchPoint): Record<string, unknown> => ({ ...launchFields(p), cohort: p.cohort, readyMs: p.readyMs });

function spec(s: Record<string, unknown>): PlotSpec {
  return { $schema: schema, config, ...s } as PlotSpec;
}

/** Cold Ready of every formal launch against its position in the round, one panel per cohort (rows) and session (columns). */
export function positionPlot(points: readonly LaunchPoint[], cohorts: readonly string[], paths: readonly string[]): Plot | null {
  const values = points.filter((p) => formalOk(p) && p.state === 'cold' && p.position !== null && p.readyMs !== null && p.readyMs > 0).map(datum);
  if (values.length === 0) return null;
  const sessions = [...new Set(values.map((v) => String(v['session'])))];
  return {
    file: 'position.svg',
    caption: `Cold Ready of every formal launch by its position among the round’s launches (0 = first), log y axis, one panel per cohort${sessions.length <= 4 ? ' and session' : ' (its sessions pooled)'}`,
    spec: spec({
      title: {
        text: 'Cold Ready by position in the round',
        subtitle: 'a path that grows to the right pays for the launches before it; lines join each path’s medians',
      },
      data: { values },
      // a panel per session while they fit the page (4), else the sessions pooled in one panel per cohort
      facet: {
        row: { field: 'cohort', type: 'nominal', title: null, sort: [...cohorts] },
        ...(sessions.length <= 4 ? { column: { field: 'session', type: 'nominal', title: 'session', sort: sessions } } : {}),
      },
      spec: {
        width: sessions.length <= 4 ? Math.max(140, Math.floor(720 / Math.max(1, sessions.length))) : 720,
        height: 180,
        layer: [
          {
            mark: { type: 'point', size: 22, opacity: 0.6 },
            encoding: {
              x: { field: 'position', type: 'quantitative', title: 'position in round', axis: { tickMinStep: 1, format: 'd' } },
              y: { field: 'readyMs', type: 'quantitative', title: 'cold Ready (ms, log)', scale: { type: 'log' } },
              color: { field: 'path', type: 'nominal', sort: [...paths], legend: { orient: 'bottom' } },
              tooltip,
            },
          },
          {
            mark: { type: 'line', strokeWidth: 1.5 },
            encoding: {
              x: { field: 'position', type: 'quantitative' },
              y: { aggregate: 'median', field: 'readyMs', type: 'quantitative' },
              color: { field: 'path', type: 'nominal', sort: [...paths] },
            },
          },
        ],
      },
      resolve: { scale: { y: 'independent' } },
    }),
  };
}

/** Each cell's session medians (dots) and its pooled median (a bar), Ready, log x, one panel per cohort and state. */
export function sessionMediansPlot(a: AnalysisResult, cohorts: readonly string[], states: readonly string[], paths: readonly string[]): Plot | null {
  const cells = a.cells.filter((c) => c.metric === 'ready' && c.sessions.length > 1 && c.p50Ms !== null);
  if (cells.length === 0) return null;
  const values = cells.flatMap((c) => [
    ...c.sessions.map((s) => ({ cohort: c.cohort, state: c.state, path: c.path, kind: `session ${s.session}`, p50Ms: s.p50Ms, n: s.n })),
    { cohort: c.cohort, state: c.state, path: c.path, kind: 'pooled', p50Ms: c.p50Ms, n: c.n },
  ]);
  return {
    file: 'session-medians.svg',
    caption: 'Ready P50 of every cell in each session (dots) and over all sessions (bar), log x axis, one panel per cohort and state',
    spec: spec({
      title: { text: 'Ready P50 per session and pooled', subtitle: 'spread between the dots is the between-session variation the intervals include' },
      data: { values },
      facet: {
        row: { field: 'cohort', type: 'nominal', title: null, sort: [...cohorts] },
        column: { field: 'state', type: 'nominal', title: null, sort: [...states] },
      },
      spec: {
        width: 340,
        layer: [
          {
            transform: [{ filter: "datum.kind === 'pooled'" }],
            mark: { type: 'tick', thickness: 3, size: 16, color: '#000' },
            encoding: {
              y: { field: 'path', type: 'nominal', sort: [...paths], title: null },
              x: { field: 'p50Ms', type: 'quantitative', scale: { type: 'log' }, title: 'Ready P50 (ms, log)' },
              tooltip: [
                { field: 'path' },
                { field: 'kind', title: 'median' },
                { field: 'p50Ms', type: 'quantitative', format: '.1f', title: 'ms' },
                { field: 'n', title: 'n' },
              ],
            },
          },
          {
            transform: [{ filter: "datum.kind !== 'pooled'" }],
            mark: { type: 'point', filled: true, size: 50 },
            encoding: {
              y: { field: 'path', type: 'nominal', sort: [...paths] },
              x: { field: 'p50Ms', type: 'quantitative' },
              color: { field: 'kind', type: 'nominal', title: 'median of', legend: { orient: 'bottom', columns: 5 } },
              tooltip: [
                { field: 'path' },
                { field: 'kind', title: 'median' },
                { field: 'p50Ms', type: 'quantitative', format: '.1f', title: 'ms' },
                { field: 'n', title: 'n' },
              ],
            },
          },
        ],
      },
      resolve: { scale: { x: 'independent' } },
    }),
  };
}

/** Stacked bars of each cold cell's median spans (analysis spans), one panel per cohort; paths without marks show their whole median Ready. */
export function breakdownPlot(a: AnalysisResult, cohorts: readonly string[], paths: readonly string[]): Plot | null {
  const values: Record<string, unknown>[] = [];
  for (const cohort of cohorts) {
    for (const path of paths) {
      const ready = a.cells.find((c) => c.cohort === cohort && c.path === path && c.state === 'cold' && c.metric === 'ready');
      if (!ready?.p50Ms) continue;
      const spans = (a.spans ?? []).filter((x) => x.cohort === cohort && x.path === path && x.state === 'cold' && x.p50Ms !== null);
      if (spans.length) for (const x of spans) values.push({ cohort, path, step: x.name, order: x.order, ms: x.p50Ms, low: x.lowMs, high: x.highMs });
      else values.push({ cohort, path, step: 'whole Ready (no marks)', order: 0, ms: ready.p50Ms });
    }
  }
  if (!values.some((v) => v['step'] !== 'whole Ready (no marks)')) return null;
  return {
    file: 'cold-breakdown.svg',
    caption:
      'Where the cold time goes: each cold cell’s median span per step (spawn to the first mark, mark to mark, the last mark to Ready), one panel per cohort',
    spec: spec({
      title: { text: 'Cold Ready by step', subtitle: 'bars: median span of each step; medians of spans add up to the median Ready only approximately' },
      data: { values },
      facet: { row: { field: 'cohort', type: 'nominal', title: null, sort: [...cohorts] } },
      spec: {
        width: 700,
        mark: { type: 'bar' },
        encoding: {
          y: { field: 'path', type: 'nominal', sort: [...paths], title: null },
          x: { field: 'ms', type: 'quantitative', stack: 'zero', title: 'cold Ready, median span (ms)' },
          color: { field: 'step', type: 'nominal', title: 'step', legend: { orient: 'bottom' } },
          order: { field: 'order', type: 'quantitative' },
          tooltip: [
            { field: 'path' },
            { field: 'step' },
            { field: 'ms', type: 'quantitative', format: '.1f', title: 'median (ms)' },
            { field: 'low', type: 'quantitative', format: '.1f', title: '95% low (ms)' },
            { field: 'high', type: 'quantitative', format: '.1f', title: '95% high (ms)' },
          ],
        },
      },
      resolve: { scale: { x: 'independent' } },
    }),
  };
}

/** Every launch of the cells the cluster rule split, with each cluster's median; null when no cell split. */
export function modesPlot(a: AnalysisResult, points: readonly LaunchPoint[]): Plot | null {
  const split = a.cells.filter((c) => c.metric === 'ready' && c.split);
  if (split.length === 0) return null;
  const label = (cohort: string, path: string, state: string): string => `${cohort} · ${path} · ${state}`;
  const keys = new Set(split.map((c) => label(c.cohort, c.path, c.state)));
  const values = points
    .filter((p) => formalOk(p) && p.readyMs !== null && keys.has(label(p.cohort, p.path, p.state)))
    .map((p) => ({ ...datum(p), cell: label(p.cohort, p.path, p.state) }));
  const medians = split.flatMap((c) => c.groups.map((g) => ({ cell: label(c.cohort, c.path, c.state), medianMs: g.medianMs, share: g.share })));
  return {
    file: 'modes.svg',
    caption: 'Every formal launch of the cells the cluster rule split, with the median of each cluster (black ticks)',
    spec: spec({
      title: { text: 'Cells with separate clusters', subtitle: 'one dot per launch, spread vertically by round; black tick: a cluster’s median' },
      width: 760,
      layer: [
        {
          data: { values },
          // a deterministic spread (never random(): the same samples give the same bytes)
          transform: [{ calculate: '((datum.round * 37 + (datum.position || 0) * 11) % 20) / 20', as: 'jitter' }],
          mark: { type: 'point', filled: true, size: 30, opacity: 0.6 },
          encoding: {
            y: { field: 'cell', type: 'nominal', title: null },
            yOffset: { field: 'jitter', type: 'quantitative', scale: { domain: [0, 1] } },
            x: { field: 'readyMs', type: 'quantitative', title: 'Ready (ms)' },
            color: { field: 'session', type: 'nominal', title: 'session' },
            tooltip,
          },
        },
        {
          data: { values: medians },
          mark: { type: 'tick', thickness: 3, color: '#000' },
          encoding: {
            y: { field: 'cell', type: 'nominal' },
            x: { field: 'medianMs', type: 'quantitative' },
            tooltip: [
              { field: 'cell' },
              { field: 'medianMs', type: 'quantitative', format: '.1f', title: 'cluster median (ms)' },
              { field: 'share', format: '.0%' },
            ],
          },
        },
      ],
    }),
  };
}

/** A round step near `raw`: 1, 2 or 5 times a power of ten. */
function niceStep(raw: number): number {
  const p = 10 ** Math.floor(Math.log10(raw));
  const m = raw / p;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

/**
 * Ticks of a symmetric-log axis across the data's range: 0, the powers of
 * ten the domain reaches, and about five round values spread over the data's
 * own range (so values of 250-450 ms get ticks between them, not only 0 and
 * 100). Pure.
 */
export function symlogTicks(values: readonly number[]): number[] {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return [0];
  const lo = Math.min(0, ...finite);
  const hi = Math.max(0, ...finite);
  const ticks = new Set<number>([0]);
  for (let k = 1; k <= 7; k++) for (const v of [-(10 ** k), 10 ** k]) if (v >= lo && v <= hi) ticks.add(v);
  const dlo = Math.min(...finite);
  const dhi = Math.max(...finite);
  if (dhi > dlo) {
    const step = niceStep((dhi - dlo) / 4);
    for (let v = Math.ceil(dlo / step) * step; v <= dhi + 1e-9; v += step) ticks.add(Math.round(v * 1e6) / 1e6);
  } else ticks.add(Math.round(dlo * 1e6) / 1e6);
  return [...ticks].sort((x, y) => x - y);
}

/**
 * Differences of Ready medians with their intervals on a symmetric-log axis
 * (so a 98 ms effect and a 7 s one are both visible), the source's intervals
 * for the same comparison drawn over them in orange.
 */
export function differencesForestPlot(
  a: AnalysisResult,
  verdicts: readonly FindingVerdict[],
  cohorts: readonly string[],
  states: readonly string[],
): Plot | null {
  const rows = a.differences
    .filter((d) => d.metric === 'ready' && d.observedMs !== null && d.lowMs !== null && d.highMs !== null)
    .map((d) => ({
      cohort: d.cohort,
      state: d.state,
      comparison: `${d.a} − ${d.b}`,
      run: 'this run',
      observedMs: d.observedMs,
      lowMs: d.lowMs,
      highMs: d.highMs,
      result: d.detected ? 'detected' : 'not detected',
    }));
  if (rows.length === 0) return null;
  const source = verdicts
    .filter((v) => v.finding.kind === 'difference' && v.finding.low !== undefined && v.finding.high !== undefined)
    .map((v) => ({
      cohort: v.finding.cohort,
      state: v.finding.state ?? '',
      comparison: `${v.finding.a} − ${v.finding.b}`,
      run: 'source',
      lowMs: v.finding.low,
      highMs: v.finding.high,
      observedMs: v.finding.value ?? (v.finding.low! + v.finding.high!) / 2,
    }))
    .filter((s) => rows.some((r) => r.cohort === s.cohort && r.state === s.state && r.comparison === s.comparison));
  const order = [...new Set(rows.map((r) => r.comparison))];
  const values = [...rows, ...source].flatMap((r) => [r.lowMs!, r.highMs!, r.observedMs!]);
  const x = {
    type: 'quantitative',
    scale: { type: 'symlog', constant: 10 },
    // A short title, so that the titles of two panels side by side do not run together.
    title: 'a − b (ms)',
    axis: { values: symlogTicks(values), format: ',~r', grid: true, labelOverlap: 'greedy', labelFlush: true },
  };
  const y = { field: 'comparison', type: 'nominal', title: null, sort: order };
  const tip = [
    { field: 'run' },
    { field: 'comparison' },
    { field: 'observedMs', type: 'quantitative', format: '.1f', title: 'difference (ms)' },
    { field: 'lowMs', type: 'quantitative', format: '.1f', title: 'low (ms)' },
    { field: 'highMs', type: 'quantitative', format: '.1f', title: 'high (ms)' },
  ];
  return {
    file: 'differences.svg',
    caption: `Ready differences of medians (a − b) with their 95% intervals on a symmetric-log axis, one panel per cohort and state${source.length ? '; orange: the source report’s interval for the same comparison' : ''}`,
    spec: spec({
      title: {
        text: 'Ready differences, a − b',
        subtitle: `symmetric-log x axis (linear within ±10 ms); blue: detected; grey: not detected${source.length ? '; orange: the source’s interval' : ''}; dashed: 0`,
      },
      data: { values: [...rows, ...source] },
      facet: {
        row: { field: 'cohort', type: 'nominal', title: null, sort: [...cohorts], header: { labelAngle: 0, labelAlign: 'left' } },
        column: { field: 'state', type: 'nominal', title: null, sort: [...states] },
      },
      spec: {
        width: 300,
        layer: [
          { mark: { type: 'rule', color: '#555', strokeDash: [4, 3] }, encoding: { x: { datum: 0, ...x } } },
          ...(source.length
            ? [
                {
                  transform: [{ filter: "datum.run === 'source'" }],
                  mark: { type: 'rule', strokeWidth: 8, color: '#f28e2b', opacity: 0.5 },
                  encoding: { y, x: { field: 'lowMs', ...x }, x2: { field: 'highMs' }, tooltip: tip },
                },
              ]
            : []),
          {
            transform: [{ filter: "datum.run === 'this run'" }],
            mark: { type: 'rule', strokeWidth: 3 },
            encoding: {
              y,
              x: { field: 'lowMs', ...x },
              x2: { field: 'highMs' },
              color: {
                field: 'result',
                type: 'nominal',
                title: 'this run',
                sort: ['detected', 'not detected'],
                scale: { range: ['#1f77b4', '#999999'] },
                legend: { orient: 'bottom' },
              },
              tooltip: tip,
            },
          },
          {
            transform: [{ filter: "datum.run === 'this run'" }],
            mark: { type: 'point', filled: true, size: 30, color: '#000' },
            encoding: { y, x: { field: 'observedMs', ...x }, tooltip: tip },
          },
        ],
      },
    }),
  };
}

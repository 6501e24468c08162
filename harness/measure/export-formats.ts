// Pure: the --export-json, --export-csv and --export-markdown files. JSON and
// CSV keep hyperfine's field names and units (seconds) so tools that read
// hyperfine's exports read these; our additions (P95, Ready, failures, groups,
// pairs with intervals) are extra fields.
import { csv } from '../db/csv-text.js';
import type { MeasuredCommand } from './command-list.js';
import type { MeasureSummary } from './measure-summary.js';
import type { Observation } from './observation.js';
import type { Look } from './until-decided.js';
import { inUnit, unitSymbol, type TimeUnit } from './time-unit.js';

const sec = (ms: number | null | undefined): number | null => (ms === null || ms === undefined ? null : ms / 1000);

/** --concurrency N: the command's bursts (burst-lines.ts), times in seconds as the rest. */
function burstJson(summary: MeasureSummary, command: number): { burst?: Record<string, unknown> } {
  const b = summary.bursts?.find((x) => x.command === command);
  if (!b) return {};
  const f = b.failures;
  return {
    burst: {
      concurrency: b.concurrency,
      bursts: b.bursts,
      metric: summary.metric,
      first_median: sec(b.firstMs),
      all_done_median: sec(b.makespanMs),
      launches_per_s_median: b.launchesPerS,
      failures: { failed: f.successes, of: f.trials, low: f.low, high: f.high },
    },
  };
}

export function exportJson(
  summary: MeasureSummary,
  commands: readonly MeasuredCommand[],
  observations: readonly Observation[],
  look: Look | null = null,
): string {
  const formal = observations.filter((o) => o.phase === 'formal');
  const results = summary.commands.map((s) => {
    const mine = formal.filter((o) => o.command === s.index);
    const passed = mine.filter((o) => o.ok && o.completionMs !== null);
    const c = commands[s.index]!;
    return {
      command: s.name,
      argv: c.argv,
      mean: sec(s.meanMs),
      stddev: sec(s.stddevMs),
      median: sec(s.completionMs?.median),
      p95: sec(s.completionMs?.p95),
      user: sec(s.userMs),
      system: sec(s.systemMs),
      min: sec(s.completionMs?.min),
      max: sec(s.completionMs?.max),
      times: passed.map((o) => o.completionMs! / 1000),
      exit_codes: mine.map((o) => o.exitCode),
      ready_times: passed.some((o) => o.readyMs !== null) ? passed.map((o) => sec(o.readyMs)) : null,
      runs: s.runs,
      failures: s.failures,
      clusters: s.clusters.map((g) => ({ n: g.n, share: g.share, median: g.median / 1000, min: g.min / 1000, max: g.max / 1000 })),
      ...(Object.keys(c.parameters).length ? { parameters: c.parameters } : {}),
      ...burstJson(summary, s.index),
    };
  });
  const pairs = summary.pairs.map((p) => ({
    base: summary.commands[p.base]!.name,
    other: summary.commands[p.other]!.name,
    rounds: p.rounds,
    ratio: p.ratio.observed,
    ratio_low: p.ratio.low,
    ratio_high: p.ratio.high,
    difference: sec(p.differenceMs.observed),
    difference_low: sec(p.differenceMs.low),
    difference_high: sec(p.differenceMs.high),
    detected: p.detected,
    metric: summary.metric,
    verdict: p.verdict.verdict,
  }));
  const until = look
    ? {
        blocks: look.blocks,
        reason: look.reason,
        pairs: look.pairs.map((q) => ({
          a: summary.commands[q.a]!.name,
          b: summary.commands[q.b]!.name,
          verdict: q.decision.verdict,
          within_margin: q.decision.withinMargin,
          margin: q.decision.marginRelative,
          ratio: q.decision.interval ? Math.exp(q.decision.interval.mean) : null,
          ratio_low: q.decision.interval ? Math.exp(q.decision.interval.low) : null,
          ratio_high: q.decision.interval ? Math.exp(q.decision.interval.high) : null,
        })),
      }
    : undefined;
  return JSON.stringify({ results, pairs, bootstrap: summary.bootstrap, ...(until ? { until } : {}) }, null, 2) + '\n';
}

export function exportCsv(summary: MeasureSummary, commands: readonly MeasuredCommand[]): string {
  const params = [...new Set(commands.flatMap((c) => Object.keys(c.parameters)))];
  const header = ['command', 'mean', 'stddev', 'median', 'user', 'system', 'min', 'max', 'p95', 'runs', 'failures', ...params.map((p) => `parameter_${p}`)];
  const rows = summary.commands.map((s) => [
    s.name,
    sec(s.meanMs),
    sec(s.stddevMs),
    sec(s.completionMs?.median),
    sec(s.userMs),
    sec(s.systemMs),
    sec(s.completionMs?.min),
    sec(s.completionMs?.max),
    sec(s.completionMs?.p95),
    s.runs,
    s.failures,
    ...params.map((p) => commands[s.index]!.parameters[p] ?? null),
  ]);
  return csv(header, rows);
}

export function exportMarkdown(summary: MeasureSummary, unit: TimeUnit): string {
  const u = unitSymbol(unit);
  const fastest = summary.commands.reduce<number | null>((best, s) => {
    const m = s.completionMs?.median;
    return m !== undefined && (best === null || m < summary.commands[best]!.completionMs!.median) ? s.index : best;
  }, null);
  const relative = (i: number): string => {
    if (i === fastest) return '1.00';
    const p = summary.pairs.find((q) => q.base === fastest && q.other === i);
    if (!p || p.ratio.observed === null) return '';
    const r = `${p.ratio.observed.toFixed(2)} [${p.ratio.low!.toFixed(2)}, ${p.ratio.high!.toFixed(2)}]`;
    return p.detected ? r : `${r} (no difference detected)`;
  };
  const lines = [
    `| Command | Median [${u}] | P95 [${u}] | Min [${u}] | Max [${u}] | Relative |`,
    '|:---|---:|---:|---:|---:|---:|',
    ...summary.commands.map((s) => {
      const sp = s.completionMs;
      const cells = sp ? [sp.median, sp.p95, sp.min, sp.max].map((v) => inUnit(v, unit)) : ['', '', '', ''];
      return `| \`${s.name.replace(/\|/g, '\\|').replace(/`/g, "'")}\` | ${cells.join(' | ')} | ${relative(s.index)} |`;
    }),
  ];
  return lines.join('\n') + '\n';
}

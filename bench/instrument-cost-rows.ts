// Benchmark helper (not a test): the instrument-cost rows of one analysed run
// of pipelines/instrument-cost.yaml or pipelines/phase-mark-cost.yaml, as a
// markdown table for docs/STATISTICS.md: per difference (instrumented -
// uninstrumented twin, same rounds) the observed difference of medians, its
// two-level bootstrap interval, its between-session t interval, the median of
// the uninstrumented twin, the cost as a share of it, and the sessions and
// rounds it rests on; with the run's start and end and the host's load. The
// run is the data folder's most recently finished analysis.
// Run: node dist/bench/instrument-cost-rows.js DATA_DIR
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixed } from '../harness/publish/format-number.js';

const data = process.argv[2];
if (!data) {
  console.error('usage: node dist/bench/instrument-cost-rows.js DATA_DIR');
  process.exit(2);
}
// The most recently finished analysis, and the sample stage whose output digest its manifest names.
const folders = (kind: string): string[] => readdirSync(join(data, 'stages', kind)).map((k) => join(data, 'stages', kind, k));
const manifest = (dir: string): { endedAt: string; outputDigest: string; text: string } => {
  const text = readFileSync(join(dir, 'manifest.json'), 'utf8');
  return { ...(JSON.parse(text) as { endedAt: string; outputDigest: string }), text };
};
const analyzeDir = folders('analyze').sort((x, y) => manifest(y).endedAt.localeCompare(manifest(x).endedAt))[0]!;
const sampleDir = folders('sample').find((dir) => manifest(analyzeDir).text.includes(manifest(dir).outputDigest))!;
const only = (kind: string): string => (kind === 'analyze' ? analyzeDir : sampleDir);
interface Analysis {
  cells: { cohort: string; path: string; state: string; metric: string; n: number; p50Ms: number }[];
  differences: {
    cohort: string;
    state: string;
    metric: string;
    a: string;
    b: string;
    sessions: number;
    rounds: number;
    observedMs: number;
    lowMs: number;
    highMs: number;
    sessionLowMs: number | null;
    sessionHighMs: number | null;
    detected: boolean;
  }[];
}
const analysis = JSON.parse(readFileSync(join(only('analyze'), 'outputs', 'analysis.json'), 'utf8')) as Analysis;
const sessions = JSON.parse(readFileSync(join(only('sample'), 'observations', 'sessions.json'), 'utf8')) as {
  startedAt: string;
  endedAt: string;
  noise: { loadAverageStart: number[]; loadAverageEnd: number[] };
}[];
const ms = (v: number | null, d: number): string => (v === null ? '-' : fixed(v, d));
const decimals = Math.max(...analysis.cells.map((c) => c.p50Ms)) < 10 ? 3 : 1;
console.log('| row | twin median (ms) | cost: median difference (ms) | two-level 95% | between-session t 95% | share of twin | detected | sessions x rounds |');
console.log('|---|---|---|---|---|---|---|---|');
for (const d of analysis.differences) {
  const twin = analysis.cells.find((c) => c.cohort === d.cohort && c.path === d.b && c.state === d.state && c.metric === d.metric)!;
  console.log(
    `| ${d.cohort} ${d.state} ${d.metric}: ${d.a} − ${d.b} | ${ms(twin.p50Ms, decimals)} | ${ms(d.observedMs, decimals)} | [${ms(d.lowMs, decimals)}, ${ms(d.highMs, decimals)}] | ` +
      `[${ms(d.sessionLowMs, decimals)}, ${ms(d.sessionHighMs, decimals)}] | ${fixed((100 * d.observedMs) / twin.p50Ms, 1)}% | ${d.detected ? 'yes' : 'no'} | ${d.sessions} x ${d.rounds / d.sessions} |`,
  );
}
const loads = sessions.flatMap((s) => [s.noise.loadAverageStart[0]!, s.noise.loadAverageEnd[0]!]);
console.log(
  `\nsessions from ${sessions[0]!.startedAt} to ${sessions[sessions.length - 1]!.endedAt}; 1-minute load average ${fixed(Math.min(...loads), 1)} to ${fixed(Math.max(...loads), 1)} at session starts and ends (2 vCPUs)`,
);

// Phase spans (issue 20): each cell's spans between consecutive phase marks,
// with a two-level interval, and per comparison where the Ready difference
// comes from, span by span. Made-up sample data (our own logic), checked
// against NumPy given the documented draw order (helpers/two-level-draws.ts).
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { analysisRules } from '../harness/config/analysis-rules.js';
import { analyzeSamples } from '../harness/analysis/analyze-samples.js';
import { spanNameOf, toReadySpan } from '../harness/analysis/phase-spans.js';
import { pairSessions } from '../harness/stats/two-level-bootstrap.js';
import { twoLevelDraws } from './helpers/two-level-draws.js';
import { madeUpPhaseSamples as madeUp } from './helpers/phase-samples.js';

const resamples = 400;
const rules = analysisRules({
  bootstrap: { resamples, seed: 'spans' },
  comparisons: [
    { a: 'docker', b: 'lazy' },
    { a: 'oci-full', b: 'docker' },
  ],
});

const data = madeUp(3, 8);
const a = analyzeSamples(data, rules, null);

/** Per launch of a cell, the span named `name` (0 when the launch lacks it), grouped as sessions of rounds. */
function spanRows(path: string, name: string): { session: number; round: number; path: string; value: number }[] {
  return data.values
    .filter((v) => v.path === path)
    .map((v) => {
      const own = data.marks.filter((m) => m.launchId === v.launchId).sort((x, y) => x.seq - y.seq);
      const at = [0, ...own.map((m) => m.atMs), v.readyMs!];
      const names = [...own.map((m) => spanNameOf(m.name)), toReadySpan];
      const i = names.indexOf(name);
      return { session: v.session, round: v.round, path, value: i < 0 ? 0 : at[i + 1]! - at[i]! };
    });
}

const numpy = (input: unknown): [number, number, number] => {
  const script = `
import json, sys, numpy as np
d = json.load(sys.stdin)
S, draws = d['sessions'], d['draws']
def diff(picked):
    a = np.concatenate([S[s]['rounds'][r]['a'] for s, r in picked])
    b = np.concatenate([S[s]['rounds'][r]['b'] for s, r in picked])
    return np.median(a) - np.median(b)
diffs = [diff(p) for p in draws]
allr = [(s, r) for s in range(len(S)) for r in range(len(S[s]['rounds']))]
print(json.dumps([float(diff(allr)), float(np.percentile(diffs, 2.5)), float(np.percentile(diffs, 97.5))]))
`;
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', script], { input: JSON.stringify(input) }).toString()) as [number, number, number];
};

test('a cell with marks gets one span per mark, named after it without -done, and a last span to Ready, in mark order; a path without marks gets none', (t) => {
  const names = (path: string): string[] => a.spans.filter((s) => s.path === path).map((s) => s.name);
  t.deepEqual(names('oci-full'), ['copy', 'unpack', toReadySpan]);
  t.deepEqual(names('docker'), ['pull', toReadySpan]);
  t.deepEqual(names('lazy'), []);
  const unpack = a.spans.find((s) => s.path === 'oci-full' && s.name === 'unpack')!;
  t.is(unpack.n, 24);
  t.is(unpack.sessions, 3);
  t.true(unpack.lowMs! < unpack.p50Ms! && unpack.p50Ms! < unpack.highMs!, `${unpack.lowMs} < ${unpack.p50Ms} < ${unpack.highMs}`);
  t.true(Math.abs(unpack.p50Ms! - 4400) < 600, `unpack P50 ${unpack.p50Ms}`);
});

test("a cell's span median and interval equal NumPy's over the same two-level draws", (t) => {
  const rows = spanRows('oci-full', 'unpack');
  // The span interval pairs each round with a constant 0 (stats/two-level-median.ts): the same sessions and draws as a difference.
  const sessions = pairSessions([...rows, ...rows.map((r) => ({ ...r, path: 'zero', value: 0 }))], 'oci-full', 'zero');
  const draws = twoLevelDraws(sessions, resamples, ['spans', 'span', 'shell', 'oci-full', 'cold', 'unpack'].join('|'));
  const [median, low, high] = numpy({ sessions, draws });
  const ours = a.spans.find((s) => s.path === 'oci-full' && s.name === 'unpack')!;
  t.true(Math.abs(ours.p50Ms! - median) < 1e-9, `${ours.p50Ms} vs ${median}`);
  t.true(Math.abs(ours.lowMs! - low) < 1e-9, `${ours.lowMs} vs ${low}`);
  t.true(Math.abs(ours.highMs! - high) < 1e-9, `${ours.highMs} vs ${high}`);
});

test('a comparison breaks down span by span, a span one path lacks counting as 0 there', (t) => {
  const docker = a.spanDifferences.filter((d) => d.a === 'docker' && d.b === 'lazy');
  t.deepEqual(
    docker.map((d) => d.name),
    ['pull', toReadySpan],
  );
  const pull = docker[0]!;
  const dockerPull = a.spans.find((s) => s.path === 'docker' && s.name === 'pull')!;
  t.is(pull.observedMs, dockerPull.p50Ms, 'lazy has no pull span: the difference is docker’s median pull');
  t.true(pull.detected);
  const toReady = docker[1]!;
  t.true(toReady.observedMs! < -100 && toReady.detected, `to Ready docker − lazy ${toReady.observedMs}: lazy's whole Ready is its to-Ready span`);
  const oci = a.spanDifferences.filter((d) => d.a === 'oci-full' && d.b === 'docker');
  t.deepEqual(
    oci.map((d) => d.name),
    ['copy', 'pull', 'unpack', toReadySpan],
  );
  t.true(oci.find((d) => d.name === 'pull')!.observedMs! < 0);
});

test("a span difference's interval equals NumPy's over the same two-level draws", (t) => {
  const rows = [...spanRows('oci-full', 'pull'), ...spanRows('docker', 'pull')];
  const sessions = pairSessions(rows, 'oci-full', 'docker');
  const draws = twoLevelDraws(sessions, resamples, ['spans', 'span', 'shell', 'cold', 'oci-full', 'docker', 'pull'].join('|'));
  const [observed, low, high] = numpy({ sessions, draws });
  const ours = a.spanDifferences.find((d) => d.a === 'oci-full' && d.name === 'pull')!;
  t.true(Math.abs(ours.observedMs! - observed) < 1e-9, `${ours.observedMs} vs ${observed}`);
  t.true(Math.abs(ours.lowMs! - low) < 1e-9, `${ours.lowMs} vs ${low}`);
  t.true(Math.abs(ours.highMs! - high) < 1e-9, `${ours.highMs} vs ${high}`);
});

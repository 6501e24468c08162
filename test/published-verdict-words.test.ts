// Every verdict word a published report uses, checked against its own CSVs
// by the one direction rule (harness/analysis/direction-rule.ts,
// docs/VERDICTS.md): the rule is applied to the numbers differences.csv (or
// commit-diff's ratios.csv) publishes, and the word the report prints for
// that row must be the word the rule gives. These read the report folders
// as published; a folder rendered before the rule (no
// sessions_alone_excluding column) fails here until it is republished.
import test from 'ava';
import { judgeDirection, type DirectionJudgement } from '../harness/analysis/direction-rule.js';
import { fixedDifferenceVerdict } from '../harness/analysis/difference-verdict.js';
import { growthShape } from '../harness/stats/floor-power-fit.js';
import { publishedCsv, publishedFile } from './helpers/published-report.js';
import { loadPipeline } from '../harness/config/load-pipeline.js';
import { knownStageKinds } from '../harness/engine/stage-registry.js';

const num = (v: string | undefined): number | null => (v === undefined || v === '' ? null : Number(v));

/** The rule on one published row; throws when the row predates the rule. */
function ruleOf(r: Record<string, string>, kind: 'difference' | 'ratio', valueKey = 'value'): DirectionJudgement {
  if (r['sessions_alone_excluding'] === undefined)
    throw new Error('this CSV predates the direction rule (no sessions_alone_excluding column): republish the report');
  return judgeDirection({
    kind,
    observed: num(r[valueKey]),
    low: num(r['low']),
    high: num(r['high']),
    sessionLow: num(r['session_low']),
    sessionHigh: num(r['session_high']),
    sessions: num(r['sessions']) ?? 0,
    sessionsAloneExcluding: num(r['sessions_alone_excluding']) ?? 0,
  });
}

/** The rows of the first table after a line that contains `marker`. */
function tableAfter(md: string, marker: string): string[][] {
  const at = md.indexOf(marker);
  if (at < 0) return [];
  const lines = md.slice(at).split('\n');
  const start = lines.findIndex((l) => l.startsWith('|'));
  const out: string[][] = [];
  for (const l of lines.slice(start)) {
    if (!l.startsWith('|')) break;
    if (/^\|[-| ]+\|$/.test(l)) continue;
    out.push(
      l
        .slice(1, -1)
        .split('|')
        .map((c) => c.trim()),
    );
  }
  return out;
}

test("sandbox-effects: each measured row's verdict is the one the direction rule gives its differences.csv row", (t) => {
  const md = publishedFile('sandbox-effects', 'report.md');
  const diffs = publishedCsv('sandbox-effects', 'differences.csv');
  const [header, ...rows] = tableAfter(md, '**Measured rows.**');
  t.truthy(header);
  // columns by their header, since the table has gained the source's figures beside its own
  const [measures, verdictAt] = [header!.indexOf('measures'), header!.indexOf('verdict')];
  t.true(measures > 0 && verdictAt > 0, header!.join(' | '));
  for (const r of rows) {
    const id = r[0]!.replace(/`/g, '');
    const control = r[measures]!.includes('negative control');
    const verdict = r[verdictAt]!;
    const d = diffs.find((x) => x['cohort'] === id && x['kind'] === 'median_ratio')!;
    const rule = ruleOf(d, 'ratio');
    if (control) {
      const equivalent =
        fixedDifferenceVerdict(
          {
            observed: num(d['value']),
            low: num(d['low']),
            high: num(d['high']),
            sessionLow: num(d['session_low']),
            sessionHigh: num(d['session_high']),
            detected: d['detected'] === 'true',
          },
          'ratio',
          null,
          { relative: 0.05, absoluteMs: 0 },
        ).verdict === 'equivalent';
      const expected = rule.direction !== null ? 'control failed' : equivalent ? 'control held' : 'control undecided';
      t.true(verdict.replace(/\*/g, '').startsWith(expected), `${id}: "${verdict}", the rule says ${expected}`);
      continue;
    }
    if (rule.direction === null) t.true(verdict.startsWith('dropped'), `${id}: "${verdict}", the rule: not established`);
    else if (rule.direction === 'higher') t.true(verdict.startsWith('dropped (worse)'), `${id}: "${verdict}", the rule: after higher`);
    // "kept" for a row that tests the optimisation itself; a proxy or another question "shows an effect"
    else t.regex(verdict, /^(kept|too small to keep|effect shown|too small \()/, `${id}: the rule: after lower`);
    t.is(verdict.includes('size uncertain'), rule.outcome === 'size uncertain', `${id}: "${verdict}"`);
  }
});

test('commit-diff: each cell\'s verdict in "Every cell" is the one the direction rule gives its ratios.csv row', (t) => {
  const md = publishedFile('commit-diff', 'report.md');
  const ratios = publishedCsv('commit-diff', 'ratios.csv');
  const [header, ...rows] = tableAfter(md, '## Appendix: Every cell');
  t.is(header![header!.length - 1], 'verdict');
  t.is(rows.length, ratios.length);
  for (const r of rows) {
    const m = /^(\d+) MB in (\d+) files/.exec(r[0]!)!;
    const row = ratios.find((x) => x['state'] === r[1] && x['total_mb'] === m[1] && x['file_count'] === m[2] && x['change_bytes'] === '1024')!;
    const rule = ruleOf(row, 'ratio', 'ratio');
    const word = r[r.length - 1]!;
    const slower = rule.direction === 'higher' ? 'naive slower' : 'native slower';
    if (rule.outcome === 'detected') t.is(word, `detected: ${slower}`, r[0]);
    else if (rule.outcome === 'size uncertain') t.is(word, `${slower}, size uncertain`, r[0]);
    else t.true(word.startsWith('undecided'), `${r[0]} ${r[1]}: "${word}"`);
  }
});

test("commit-diff: the summary's shape sentence is the shape growth.csv's k interval and sizes above the floor name", (t) => {
  const md = publishedFile('commit-diff', 'report.md');
  const g = publishedCsv('commit-diff', 'growth.csv').find((x) => x['dimension'] === 'file_count' && x['method'] === 'naive' && x['state'] === 'incremental');
  t.truthy(g);
  if (g!['k'] === undefined) return t.fail('growth.csv predates the k columns: republish commit-diff');
  const f = {
    exponent: Number(g!['k']),
    exponentLow: Number(g!['k_low']),
    exponentHigh: Number(g!['k_high']),
    sizesAboveFloor: Number(g!['k_sizes_above_floor']),
    identified: g!['k_identified'] === 'true',
  };
  const shape = growthShape(f as Parameters<typeof growthShape>[0]);
  t.is(g!['shape'], shape);
  const opening = md.slice(0, md.indexOf('\n## '));
  const k = `k = ${f.exponent.toFixed(2)} [${f.exponentLow.toFixed(2)}, ${f.exponentHigh.toFixed(2)}] (${f.sizesAboveFloor} of ${g!['sizes']} sizes above the floor)`;
  const expected: Record<string, string> = {
    'not-identified': `only ${f.sizesAboveFloor} of ${g!['sizes']} sizes`,
    linear: `grows linearly above its floor: ${k} holds 1 and excludes 2`,
    quadratic: `grows quadratically above its floor: ${k} holds 2 and excludes 1`,
    between: `grows faster than linearly and slower than quadratically above its floor: ${k}`,
    sublinear: `grows slower than linearly above its floor: ${k}`,
    superquadratic: `grows faster than quadratically above its floor: ${k}`,
    unresolved: `${k} holds both 1 and 2`,
  };
  t.true(opening.includes(expected[shape]!), `expected "${expected[shape]}"`);
});

test('lazy-startup: each difference\'s result in "Every difference" and its differences.csv verdict are the ones the direction rule gives', (t) => {
  const md = publishedFile('lazy-startup', 'report.md');
  const diffs = publishedCsv('lazy-startup', 'differences.csv').filter((d) => d['kind'] === 'median_difference');
  const [header, ...rows] = tableAfter(md, '## Appendix: Every difference');
  const result = header!.indexOf('result');
  t.true(result > 0);
  let checked = 0;
  // sampled until decided (design.adaptive): the sequential rule gives the verdicts (recomputed from the
  // samples by published-lazy-startup-reanalysis), and the report words each verdict column's value
  const cfg = loadPipeline('pipeline.yaml', { knownKinds: knownStageKinds() });
  if ((cfg.design as unknown as Record<string, unknown>)['adaptive']) {
    for (const d of diffs) {
      const v = d['verdict']!;
      const who = `${d['cohort']} ${d['state']} ${d['metric']} ${d['a']} − ${d['b']}`;
      t.true(['lower', 'higher', 'equivalent', 'undecided'].includes(v), `${who}: ${v}`);
      t.is(d['detected'] === 'true', v === 'lower' || v === 'higher', who);
      t.is(d['size_uncertain'], 'false', who);
      const row = rows.find(
        (r) => r[0] === d['cohort'] && r[1] === d['state'] && r[2] === d['metric'] && r[3]!.replace(/\*/g, '').startsWith(`${d['a']} − ${d['b']}`),
      );
      if (!row) continue;
      const word = row[result]!.split(';')[0]!;
      if (v === 'lower' || v === 'higher') t.is(word, 'detected', who);
      else if (v === 'equivalent') t.true(word.startsWith('equivalent within'), `${who}: "${word}"`);
      else t.is(word, 'undecided', who);
      checked++;
    }
    t.true(checked > 0, 'no row of "Every difference" matched differences.csv');
    return;
  }
  for (const d of diffs) {
    const rule = ruleOf(d, 'difference');
    // differences.csv's verdict: lower or higher exactly where the rule establishes the direction
    if (rule.direction !== null) t.is(d['verdict'], rule.direction, `${d['cohort']} ${d['state']} ${d['metric']} ${d['a']} − ${d['b']}`);
    else t.true(d['verdict'] === 'undecided' || d['verdict'] === 'equivalent', `${d['cohort']} ${d['state']} ${d['a']} − ${d['b']}: ${d['verdict']}`);
    t.is(d['size_uncertain'] === 'true', rule.outcome === 'size uncertain');
    const row = rows.find(
      (r) => r[0] === d['cohort'] && r[1] === d['state'] && r[2] === d['metric'] && r[3]!.replace(/\*/g, '').startsWith(`${d['a']} − ${d['b']}`),
    );
    if (!row) continue;
    const word = row[result]!.split(';')[0]!;
    if (rule.outcome === 'detected') t.is(word, 'detected');
    else if (rule.outcome === 'size uncertain') t.is(word, 'size uncertain');
    else t.false(word === 'detected' || word === 'size uncertain', `${row.slice(0, 4).join(' ')}: "${word}"`);
    checked++;
  }
  t.true(checked > 0, 'no row of "Every difference" matched differences.csv');
});

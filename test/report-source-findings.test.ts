// The source report's findings set against this run: each agrees or differs
// with both numbers, and a differing one is stated in the conclusions.
import test from 'ava';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnalysisResult } from '../harness/analysis/analysis-result.js';
import { judgeFinding, sourceReference, type SourceFinding } from '../harness/report/source-findings.js';
import { runReport } from './helpers/report-run.js';

// Synthetic launches (test/helpers/report-run.ts): lazy has the lowest median Ready in both states, docker and oci-full far slower.
const reference = {
  source: 'A source report (test)',
  findings: [
    {
      id: 'cold-lazy-lower',
      cohort: 'shell',
      state: 'cold',
      kind: 'difference',
      a: 'docker',
      b: 'lazy',
      low: 389.2,
      high: 833.9,
      statement: 'cold lazy is lower',
    },
    {
      id: 'warm-docker-lower',
      cohort: 'shell',
      state: 'warm',
      kind: 'difference',
      a: 'docker',
      b: 'lazy',
      low: -86.1,
      high: -48.2,
      statement: 'warm Docker is faster',
    },
    {
      id: 'numpy-none',
      cohort: 'numpy',
      state: 'cold',
      kind: 'difference',
      a: 'docker',
      b: 'lazy',
      value: -135.3,
      low: -204.1,
      high: 176.7,
      statement: 'no cold difference is detected',
    },
    { id: 'p50-close', cohort: 'shell', state: 'cold', kind: 'p50', a: 'lazy', value: 183.7, statement: 'cold lazy P50 183.7 ms' },
    { id: 'p50-far', cohort: 'shell', state: 'cold', kind: 'p50', a: 'lazy', value: 1000, statement: 'cold lazy P50 1 s' },
    { id: 'dominance', cohort: 'shell', state: 'cold', kind: 'dominance', a: 'lazy', b: 'docker', statement: 'every cold lazy launch precedes docker' },
    { id: 'content', cohort: 'shell', state: 'cold', kind: 'content-reduction', a: 'docker', b: 'lazy', value: 0.938, statement: 'lazy content 93.8% smaller' },
    { id: 'missing', cohort: 'shell', state: 'cold', kind: 'difference', a: 'docker', b: 'gvisor', low: 1, high: 2, statement: 'a path this run lacks' },
  ],
};

let dir = '';
let analysis: AnalysisResult;
let md = '';
const finding = (id: string): SourceFinding => sourceReference(reference)!.findings.find((f) => f.id === id)!;

test.before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'benchgraph-source-'));
  const out = await runReport(dir, undefined, (cfg) => {
    cfg.experiment.reference = reference;
    cfg.report = { paths: { lazy: { stack: 'crun', confounds: ['reads erofs from nginx'], content: 'uncompressed erofs ranges' } } };
  });
  analysis = JSON.parse(await readFile(join(out.analysisDir, 'analysis.json'), 'utf8')) as AnalysisResult;
  md = await readFile(join(out.reportDir, 'report.md'), 'utf8');
});
test.after.always(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

test('a source difference detected in the same direction agrees', (t) => {
  t.is(judgeFinding(finding('cold-lazy-lower'), analysis).verdict, 'agrees');
});

test('a source difference pointing the other way differs, and both numbers are given', (t) => {
  const v = judgeFinding(finding('warm-docker-lower'), analysis);
  t.is(v.verdict, 'differs');
  t.regex(v.source, /\[-86\.1, -48\.2\] ms: docker has the lower median/);
  t.regex(v.ours, /^docker − lazy -?\d+\.\d ms, 95% CI \[\d+\.\d, \d+\.\d\] ms: lazy has the lower median$/);
});

test('a source finding of no detected difference differs from a detected one', (t) => {
  t.is(judgeFinding(finding('numpy-none'), analysis).verdict, 'differs');
});

test('a P50 agrees within the tolerance ratio and differs beyond it', (t) => {
  t.is(judgeFinding(finding('p50-close'), analysis).verdict, 'agrees');
  t.is(judgeFinding(finding('p50-far'), analysis).verdict, 'differs');
});

test('a dominance and a content reduction that hold here agree', (t) => {
  t.is(judgeFinding(finding('dominance'), analysis).verdict, 'agrees');
  t.is(judgeFinding(finding('content'), analysis).verdict, 'agrees');
});

test('a finding about a path this run lacks is not measured rather than agreeing or differing', (t) => {
  t.is(judgeFinding(finding('missing'), analysis).verdict, 'not measured');
});

test('the report has an "Against the source report" section with a row per finding marked agrees or differs', (t) => {
  const section = md.split('## Against the source report\n')[1]!.split('\n## ')[0]!;
  for (const f of reference.findings) t.regex(section, new RegExp(`^\\| ${f.id} \\|`, 'm'), f.id);
  t.regex(section, /\| warm-docker-lower \|.*\| \*\*differs\*\* \|$/m);
  t.regex(section, /\| cold-lazy-lower \|.*\| agrees \|$/m);
});

test('each cohort answers in at most five sentences, and a differing source finding is stated there', (t) => {
  const conclusions = md.split('## Conclusions\n')[1]!.split('\n## ')[0]!;
  for (const cohort of ['shell', 'numpy']) {
    const para = conclusions.split('\n').find((l) => l.startsWith(`**${cohort}.** `))!;
    const sentences = para
      .replace(/^\*\*\w+\.\*\* /, '')
      .replace(/\d\.\d/g, 'N')
      .split(/\. (?=[A-Z])/);
    t.true(sentences.length <= 5, `${cohort}: ${sentences.length} sentences`);
  }
  t.regex(conclusions, /Unlike the source report, where warm Docker is faster, here docker − lazy/);
  t.regex(conclusions, /^Scope: /m);
});

test("the design section lists a path's confounds and says what its content bytes are", (t) => {
  t.regex(md, /- Path `lazy`.*Runtime stack: crun\. Its content bytes are uncompressed erofs ranges\.\n  - Confound: reads erofs from nginx/);
  t.regex(md, /- Path `docker`.*\n  - Confounds: none listed/);
});

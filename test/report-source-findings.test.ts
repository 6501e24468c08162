// The source report's findings set against this run: each verdict has a
// direction and a magnitude part (this run's effect over the source's within
// the finding's band) and agrees only when both held; a stand-in
// path judges a difference finding a second time; a finding the pipeline
// calls not comparable says why.
import test from 'ava';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnalysisResult } from '../harness/analysis/analysis-result.js';
import { judgeFinding, magnitudeCell, sourceReference, type SourceFinding } from '../harness/report/source-findings.js';
import type { ReportDocument, Table } from '../harness/document/document-model.js';
import { reportDocumentOf, runReport } from './helpers/report-run.js';

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
    {
      id: 'cold-wide',
      cohort: 'shell',
      state: 'cold',
      kind: 'difference',
      a: 'docker',
      b: 'lazy',
      low: 100,
      high: 100000,
      statement: 'cold lazy is lower, by a wide margin',
    },
  ],
};

let dir = '';
let analysis: AnalysisResult;
let doc: ReportDocument;
const finding = (id: string): SourceFinding => sourceReference(reference)!.findings.find((f) => f.id === id)!;

test.before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'benchgraph-source-'));
  const out = await runReport(dir, undefined, (cfg) => {
    cfg.experiment.reference = reference;
    cfg.report = { paths: { lazy: { stack: 'crun', confounds: ['reads erofs from nginx'], content: 'uncompressed erofs ranges' } } };
  });
  analysis = JSON.parse(await readFile(join(out.analysisDir, 'analysis.json'), 'utf8')) as AnalysisResult;
  ({ doc } = await reportDocumentOf(join(dir, 'doc'), (cfg) => {
    cfg.experiment.reference = reference;
    cfg.report = {
      paths: { lazy: { stack: 'crun', confounds: ['reads erofs from nginx'], content: 'uncompressed erofs ranges' } },
      source: { stand_ins: { lazy: 'oci-full' }, not_comparable: { 'p50-close': 'the source path is a VM' } },
    };
  }));
});
test.after.always(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

test("a source difference detected in the same direction agrees only when this run's effect over the source's lies within the band, never on overlap alone", (t) => {
  const far = judgeFinding(finding('cold-lazy-lower'), analysis);
  t.is(far.direction, 'held');
  t.false(far.magnitude!.held);
  t.true(far.magnitude!.ratio! > 1);
  t.is(far.verdict, 'differs');
  t.regex(magnitudeCell(far), /^×\d+\.\d+ the source's, outside ×0\.80–×1\.25$/);
  const wide = judgeFinding(finding('cold-wide'), analysis);
  t.is(wide.direction, 'held');
  t.true(wide.magnitude!.overlap!, 'the intervals overlap');
  t.false(wide.magnitude!.held, 'overlap is no match');
  t.is(wide.verdict, 'differs');
});

test('a source difference pointing the other way differs, and both numbers are given', (t) => {
  const v = judgeFinding(finding('warm-docker-lower'), analysis);
  t.is(v.verdict, 'differs');
  t.is(v.direction, 'changed');
  t.is(v.magnitude!.ratio, null, 'no ratio of effects that point opposite ways');
  t.regex(v.source, /\[-86\.1, -48\.2\] ms: docker has the lower median/);
  // our interval's endpoints to the digits its seed spread supports (report/interval-text.ts)
  t.regex(v.ours, /^docker − lazy -?\d+\.\d ms, 95% CI \[\d+(\.\d)?, \d+(\.\d)?\](±\d+(\.\d)?)? ms: lazy has the lower median$/);
});

test('a source finding of no detected difference differs from a detected one', (t) => {
  const v = judgeFinding(finding('numpy-none'), analysis);
  t.is(v.verdict, 'differs');
  t.is(v.direction, 'gained', 'the source saw none, this run detects one: gained, as compare says it');
  t.false(v.magnitude!.judged, 'no size to compare against no effect');
  t.is(magnitudeCell(v), 'not judged: the directions differ');
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

const tables = (d: ReportDocument, title: string): Table[] =>
  [...d.sections, ...d.appendix].filter((x) => x.title === title).flatMap((x) => x.blocks.filter((b): b is Table => b.kind === 'table'));

test('the report has an "Against the source" section, and its appendix a row per finding, the stand-in twins and a not-comparable reason', (t) => {
  t.true(doc.sections.some((x) => x.title === 'Against the source'));
  const [src] = tables(doc, 'Against the source, in full');
  t.deepEqual(src!.header, ['finding', 'source', 'direction', 'magnitude', 'verdict']);
  const ids = src!.rows.map((r) => r[0]);
  for (const f of reference.findings) t.true(ids.includes(f.id), f.id);
  t.true(ids.includes('cold-lazy-lower (oci-full)'), 'a difference naming lazy is judged again with its stand-in');
  t.false(ids.includes('p50-close (oci-full)'), 'only differences get a stand-in twin');
  const row = (id: string): readonly string[] => src!.rows.find((r) => r[0] === id)!;
  t.is(row('warm-docker-lower')[4], '**differs**');
  t.is(row('cold-wide')[4], '**differs**');
  t.is(row('p50-close')[4], 'not comparable: the source path is a VM');
});

test('the opening answers in at most five sentences after the summary, and the source tally is one of them', (t) => {
  // after the answer, the summary table and its legend
  const table = doc.opening.findIndex((b) => b.kind === 'table');
  const after = doc.opening.slice(table + 2);
  t.true(after.length <= 5);
  const text = after.map((b) => (b.kind === 'paragraph' ? b.text : '')).join(' ');
  t.regex(
    text,
    /Of the source's 9 findings, \d+ of the 7 judged held in direction and \d+ of the \d+ with a size to compare also in magnitude \(1 is not comparable and 1 could not be measured here\); judged again against the stand-in oci-full, \d+ of 4 held in direction and \d+ of \d+ also in magnitude\./,
  );
  t.regex((doc.opening[0] as { text: string }).text, /^\*\*Scope:\*\* /);
});

test("the appendix lists a path's confounds and says what its content bytes are", (t) => {
  const paths = doc.appendix.find((x) => x.title === 'Paths and their confounds')!;
  const items = paths.blocks.flatMap((b) => (b.kind === 'list' ? b.items : []));
  t.regex(
    items.find((i) => i.startsWith('Path `lazy`'))!,
    /Runtime stack: crun\..*Confounds: reads erofs from nginx\./,
  );
  const intro = paths.blocks.find((b) => b.kind === 'paragraph') as { text: string };
  t.regex(intro.text, /No confound is listed for docker, oci-full \(report\.paths\)/);
  const content = doc.appendix.find((x) => x.title === 'Content transfer')!;
  t.true(content.blocks.some((b) => b.kind === 'paragraph' && b.text.includes("What each path's content bytes are: lazy: uncompressed erofs ranges.")));
});

test('a source difference given only as an interval names the midpoint its magnitude is taken against', async (t) => {
  const { sourceText } = await import('../harness/report/source-findings.js');
  const f = {
    id: 'x',
    kind: 'difference',
    cohort: 'shell',
    state: 'cold',
    a: 'docker',
    b: 'lazy',
    low: 389.2,
    high: 833.9,
    toleranceRatio: 1.25,
  } as unknown as SourceFinding;
  t.regex(sourceText(f), /^midpoint 611\.[56] ms \(no point estimate given\), 95% CI \[389\.2, 833\.9\] ms: /);
  t.regex(sourceText({ ...f, value: -135.3 } as SourceFinding), /^-135\.3 ms, 95% CI/);
});

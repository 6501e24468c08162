// The burst-startup report as a document (pure): how start-up degrades as
// more launches start at once, per path. First screen: the answer per path
// (the ratio at the largest N to alone, the knee, failures), the rate
// sentence and the curve's table; then the plot, the peers' figures beside
// this host's and how it was measured; the comparisons the judge decided and
// the tails where n supports them are in the appendix.
import type { AnalysisResult, DifferenceResult } from '../analysis/analysis-result.js';
import type { DocumentRun } from '../publish/document-run.js';
import { verdictText } from '../comparison/verdict-words.js';
import { figure, list, paragraph, section, sentences, table, type ReportDocument } from '../document/document-model.js';
import { fixed } from '../publish/format-number.js';
import { hostNoiseBlocks } from '../publish/session-sections.js';
import type { CurvePoint, Estimate } from './concurrency-curve.js';
import type { Knee } from './knee.js';
import type { OpenLoopPoint } from './open-loop.js';

export interface BurstDocumentInput extends DocumentRun {
  title: string;
  question: string;
  motivation: string | null;
  paths: readonly string[];
  /** Each path's description: what one launch of it is. */
  pathDescriptions: Readonly<Record<string, string>>;
  /** Paths whose launches of one burst or train read one fresh on-demand mount (the lazy path): their N = 1 reads the whole start-up on demand. */
  sharedMountPaths?: readonly string[];
  points: readonly CurvePoint[];
  /** Open-loop arms (open-loop.ts): arrivals at fixed rates; empty when the run had none. */
  openLoop: readonly OpenLoopPoint[];
  knees: readonly Knee[];
  differences: readonly DifferenceResult[];
  cells: AnalysisResult['cells'];
  /** Each session's measured footprint of one launch per path, kB, and what was available. */
  memory: readonly { session: number; availableKb: number | null; footprintKb: Record<string, number> }[];
  plotFile: string | null;
}

/** ms with one decimal below 100, whole above. */
export const msText = (v: number): string => (Math.abs(v) < 100 ? fixed(v, 1) : Math.round(v).toLocaleString('en-US'));
const ratioText = (v: number): string => `×${fixed(v, 2)}`;
const withInterval = (e: Estimate | null, f: (v: number) => string): string =>
  e === null ? '–' : e.low === null || e.high === null ? f(e.value) : `${f(e.value)} [${f(e.low)}, ${f(e.high)}]`;
const pct = (v: number): string => `${fixed(100 * v, v < 0.1 ? 1 : 0)}%`;

export function failureText(p: Pick<CurvePoint, 'failures'>): string {
  const f = p.failures;
  return f.successes === 0 ? `0 of ${f.trials} (≤ ${pct(f.high)})` : `${f.successes} of ${f.trials}, ${pct(f.rate)} [${pct(f.low)}, ${pct(f.high)}]`;
}

export function kneeText(k: Knee): string {
  const margin = `P50 above ${ratioText(k.thresholdRatio)} of N = 1`;
  if (k.level === null)
    return `no knee up to N = ${k.largestLevel} (${margin}${k.earliest === null ? '' : `; its interval reaches that from N = ${k.earliest}, so the knee may be there`})`;
  const beyond = `beyond N = ${k.largestLevel}`;
  const range = `${k.earliest === null ? beyond : `N = ${k.earliest}`} to ${k.latest === null ? beyond : `N = ${k.latest}`}`;
  return k.earliest === k.latest ? `knee at N = ${k.level} (${margin})` : `knee at N = ${k.level} (${margin}; it lies from ${range})`;
}

/** The smallest N from which every larger N's launches per second lies inside that N's interval (the rate no longer grows); null when none does. */
export function rateLevelsOffAt(points: readonly CurvePoint[], path: string): number | null {
  const mine = points.filter((x) => x.path === path && x.launchesPerS !== null).sort((a, b) => a.level - b.level);
  for (let i = 0; i < mine.length - 1; i++) {
    const r = mine[i]!.launchesPerS!;
    if (r.low === null || r.high === null || mine[i]!.level === 1) continue;
    if (mine.slice(i + 1).every((x) => x.launchesPerS!.value >= r.low! && x.launchesPerS!.value <= r.high!)) return mine[i]!.level;
  }
  return null;
}

function rateSentence(p: BurstDocumentInput): string | null {
  const at = p.paths.map((path) => ({ path, level: rateLevelsOffAt(p.points, path) }));
  const off = at.filter((x) => x.level !== null);
  if (!off.length) return null;
  const still = at.filter((x) => x.level === null).map((x) => x.path);
  return (
    `More at once did not start faster beyond a few: a burst's launches per second levels off from ${off.map((x) => `N = ${x.level} for ${x.path}`).join(', ')} (every larger N's rate lies inside that N's interval), so each launch waits longer instead` +
    (still.length ? `; ${still.join(' and ')} still gained at the largest N.` : '.')
  );
}

function answer(p: BurstDocumentInput): string[] {
  return p.paths.flatMap((path) => {
    const mine = p.points.filter((x) => x.path === path);
    const alone = mine.find((x) => x.level === 1);
    const top = mine[mine.length - 1];
    if (!alone?.p50Ms || !top?.p50Ms || top.level === 1) return [];
    const knee = p.knees.find((k) => k.path === path);
    const failed = mine.reduce((s, x) => s + x.failures.successes, 0);
    const launches = mine.reduce((s, x) => s + x.failures.trials, 0);
    return [
      `**${path}**: each launch ${withInterval(top.ratioToSequential, ratioText)} as slow with ${top.level} at once as alone` +
        `${knee ? `; ${kneeText(knee)}` : ''}; ${failed === 0 ? `no launch of ${launches} failed` : `${failed} of ${launches} launches failed`}.`,
    ];
  });
}

/** The leading columns of the curve and open-loop tables: the path, where on the path (N, or arrivals/s), its launches, their P50 Ready and its ratio to alone. */
const launchColumns = (at: string): string[] => ['path', at, 'launches', 'P50 Ready, ms', '× N = 1'];

/** The cells of launchColumns but the last, of one curve or open-loop point at `at` (its N or rate). */
const launchCells = (x: Pick<CurvePoint, 'path' | 'launches' | 'p50Ms'>, at: number): string[] => [
  x.path,
  String(at),
  String(x.launches),
  withInterval(x.p50Ms, msText),
];

function curveTable(p: BurstDocumentInput) {
  return table(
    [...launchColumns('N'), 'makespan, ms', 'launches/s', 'failed'],
    p.points.map((x) => [
      ...launchCells(x, x.level),
      x.level === 1 ? '–' : withInterval(x.ratioToSequential, ratioText),
      withInterval(x.makespanMs, msText),
      withInterval(x.launchesPerS, (v) => fixed(v, v < 10 ? 1 : 0)),
      failureText(x),
    ]),
    'Per path and N (launches released together): the P50 of per-launch Ready (geometric mean over sessions of each session’s P50, between-session 95% t interval), its ratio to the same path alone (per session, then over sessions), each burst’s makespan (release to the last Ready) and N over it (median over a session’s bursts, then over sessions), and failures with their 95% Clopper–Pearson interval',
  );
}

/** The first screen's sentence on the open loop: per path, each launch against alone at every rate, and the most in flight at the highest. */
function openLoopSentence(p: BurstDocumentInput): string | null {
  const perPath = p.paths.map((path) => p.openLoop.filter((x) => x.path === path && x.ratioToSequential !== null)).filter((xs) => xs.length > 0);
  if (!perPath.length) return null;
  const and = (xs: string[]): string => (xs.length < 2 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);
  return (
    `Arriving one after another (open loop, ${perPath[0]![0]!.count} launches a train), each launch took ` +
    perPath
      .map((xs) => {
        const top = xs[xs.length - 1]!;
        return (
          `${and(xs.map((x) => ratioText(x.ratioToSequential!.value)))} as long as alone under ${top.path}` +
          (top.inFlightMax === null ? '' : ` (at most ${top.inFlightMax} in flight at ${top.ratePerS}/s)`)
        );
      })
      .join('; ') +
    `, at ${and(perPath[0]!.map((x) => String(x.ratePerS)))} a second (intervals in the open-loop table).`
  );
}

/** What "alone" is on a path whose launches share one fresh on-demand mount: the ratios of such a path are not those of an image already local. */
function sharedMountSentence(p: BurstDocumentInput): string | null {
  const paths = (p.sharedMountPaths ?? []).filter((x) => p.points.some((c) => c.path === x));
  if (!paths.length) return null;
  const names = paths.length < 2 ? paths[0]! : `${paths.slice(0, -1).join(', ')} and ${paths[paths.length - 1]}`;
  return (
    `Under ${names}, alone is one launch reading the image on demand through a mount made fresh for it. The launches of a burst, or of a train, share one fresh mount: ` +
    `the image is fetched once for all of them, and a train's later launches read what its first ones fetched, so a ratio below ×1 there is the shared mount, not a faster start.`
  );
}

function openLoopTable(p: BurstDocumentInput) {
  if (!p.openLoop.length) return null;
  return table(
    [...launchColumns('arrivals/s'), 'in flight, median (max)', 'latest release, ms', 'failed'],
    p.openLoop.map((x) => [
      ...launchCells(x, x.ratePerS),
      withInterval(x.ratioToSequential, ratioText),
      x.inFlightMedian === null ? '–' : `${fixed(x.inFlightMedian, Number.isInteger(x.inFlightMedian) ? 0 : 1)} (${x.inFlightMax})`,
      x.lateMsMax === null ? '–' : fixed(x.lateMsMax, 2),
      failureText(x),
    ]),
    'Per path and arrival rate (open loop: each train releases its launches one every 1/rate s, whether or not the earlier ones are done): the P50 of per-launch Ready from its own release (geometric mean over sessions of each session’s P50, between-session 95% t interval), its ratio to the same path alone (per session, then over sessions), the launches in flight at once (release to Completion) at each train’s peak, the latest release after its scheduled time, and failures with their 95% Clopper–Pearson interval',
  );
}

/** Where the helper's releases fell behind their schedule by more than a tenth of the interval: the rate held there was lower at a train's end. */
function lateReleases(p: BurstDocumentInput) {
  const late = p.openLoop.filter((x) => x.lateMsMax !== null && x.lateMsMax > 0.1 * (1000 / x.ratePerS));
  if (!late.length) return null;
  return paragraph(
    `The launch helper shares the host with the launches it releases: ${late.map((x) => `${x.path} at ${x.ratePerS}/s`).join(', ')} had a release come more than a tenth of its interval late (latest release column), so those trains arrived slower than their rate toward their end. Each launch is still timed from its scheduled release: the wait counts in its Ready, as a request's queueing would.`,
  );
}

function judgeTable(p: BurstDocumentInput) {
  const ready = p.differences.filter((d) => d.metric === 'ready' && !d.factor);
  if (!ready.length) return null;
  const p50Of = (path: string): number | null => p.cells.find((c) => c.path === path && c.metric === 'ready')?.p50Ms ?? null;
  const interval = (lo: number | null, hi: number | null): string => (lo === null || hi === null ? '–' : `[${msText(lo)}, ${msText(hi)}]`);
  return table(
    ['a − b', 'difference, ms', 'two-level 95%', 'between sessions', 'verdict'],
    ready.map((d) => [
      `${d.a} − ${d.b}`,
      d.observedMs === null ? '–' : msText(d.observedMs),
      interval(d.lowMs, d.highMs),
      interval(d.sessionLowMs, d.sessionHighMs),
      d.verdict ? verdictText(d.verdict, p50Of(d.b)) : 'undecided',
    ]),
    'Differences of per-launch Ready P50 the pipeline lists (analysis.comparisons), paired by round, decided by the one rule every experiment uses (docs/VERDICTS.md)',
  );
}

function tailsBlocks(p: BurstDocumentInput) {
  const rows = p.points.flatMap((x) =>
    x.tails.flatMap((t) =>
      t.interval
        ? [
            [
              x.path,
              String(x.level),
              String(x.launches),
              `P${Math.round(100 * t.p)}`,
              `${msText(t.interval.estimate)} [${msText(t.interval.low)}, ${msText(t.interval.high)}]`,
            ],
          ]
        : [],
    ),
  );
  const needs = p.points[0]?.tails.map((t) => `P${Math.round(100 * t.p)} at least ${t.needN}`).join(', ') ?? '';
  return [
    paragraph(
      `Tail percentiles of per-launch Ready over all sessions, untrimmed, with a distribution-free 95% interval from order statistics; a cell is shown only where its launches support one (${needs}).${rows.length ? '' : ' No cell of this run has that many.'}`,
    ),
    rows.length ? table(['path', 'N', 'launches', 'percentile', 'Ready, ms [95%]'], rows) : null,
  ];
}

/** "crun, runsc and docker below X; lazy above X": the paths grouped by what was found, each outcome said once, in the paths' order. */
function byOutcome(found: readonly (readonly [path: string, outcome: string])[]): string {
  const groups = new Map<string, string[]>();
  for (const [path, outcome] of found) groups.set(outcome, [...(groups.get(outcome) ?? []), path]);
  const and = (xs: string[]): string => (xs.length < 2 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);
  return [...groups].map(([outcome, paths]) => `${and(paths)} ${outcome}`).join('; ');
}

function claims(p: BurstDocumentInput): string[] {
  const largest = (path: string): CurvePoint | undefined => p.points.filter((x) => x.path === path).slice(-1)[0];
  const ratios = p.paths.map((path) => largest(path)).filter((x): x is CurvePoint => !!x && x.level > 1 && x.ratioToSequential !== null);
  const inRange = (e: Estimate): string =>
    e.low === null || e.high === null
      ? 'not placed (no interval: under 3 sessions)'
      : e.high < 1.2
        ? 'below their range'
        : e.low !== null && e.low > 14
          ? 'above their range'
          : e.low !== null && e.high !== null && e.low >= 1.2 && e.high <= 14
            ? 'within their range'
            : 'not placed (the interval crosses an end of their range)';
  const p99 = p.paths
    .map((path) => largest(path))
    .filter((x): x is CurvePoint => !!x)
    .map((x) => {
      const t = x.tails.find((q) => q.p === 0.99)!;
      return [
        x.path,
        t.interval
          ? `${t.interval.low > 146 ? 'above' : t.interval.high < 146 ? 'below' : 'not told apart from'} their 146 ms`
          : `not estimated (${x.launches} launches, needs ${t.needN})`,
      ] as const;
    });
  const rates = p.paths
    .map((path) => largest(path))
    .filter((x): x is CurvePoint => !!x && x.launchesPerS !== null)
    .map((x) => {
      const r = x.launchesPerS!;
      const where =
        r.low === null || r.high === null ? 'not placed (no interval) against' : r.high < 150 ? 'below' : r.low > 150 ? 'above' : 'not told apart from';
      return [x.path, `${where} their 150/s`] as const;
    });
  const staggered = p.openLoop.filter((x) => x.ratePerS === 5 && x.ratioToSequential !== null);
  return [
    `**ComputeSDK's leaderboard** (a burst of 100 sandboxes against the same provider's sequential median, per-sandbox time, one run a day): the burst cost ×1.2 to ×14 across providers. Here the same ratio, per-launch P50 at the largest N over alone (first table): ${byOutcome(ratios.map((x) => [x.path, inRange(x.ratioToSequential!)] as const))}. Their N is 100, ours ${ratios[0]?.level ?? '–'}; their times include a provider's API and network.`,
    ...(staggered.length
      ? [
          `**ComputeSDK's staggered runs** (100 sandboxes 200 ms apart) are this report's open loop at 5 a second, over 100 launches where a train here has ${staggered[0]!.count}; they publish no staggered ÷ sequential figure to hold this run's against (the open-loop table).`,
        ]
      : []),
    `**Firecracker** (its specification: a boot P99 of 146 ms with 50 microVMs launching concurrently, up to 150 microVMs/s per host): a microVM's guest boot on KVM, which this host cannot run. Here, at the largest N: per-launch P99 (the appendix's tail percentiles) ${byOutcome(p99)}; launches/s (first table) ${byOutcome(rates)}. Set beside, not compared: another runtime, another event, another N.`,
    `**containerd-stress** (containers/s at a fixed concurrency, no percentiles): the closest figure here is the launches/s of the first table, over one burst's makespan (closed loop), not a sustained rate.`,
  ];
}

export function burstDocument(p: BurstDocumentInput): ReportDocument {
  // one sentence: per path its footprint in each session, then what each session had available
  const sessionsText = p.memory.map((m) => m.session).join(', ');
  const footprintPaths = [...new Set(p.memory.flatMap((m) => Object.keys(m.footprintKb)))];
  const mib = (kb: number | null | undefined): string => (kb === null || kb === undefined ? '–' : fixed(kb / 1024, 1));
  const available = p.memory.every((m) => m.availableKb !== null)
    ? `; MiB available: ${p.memory.map((m) => Math.round(m.availableKb! / 1024).toLocaleString('en-US')).join(', ')}`
    : '';
  const memory = p.memory.length
    ? `Memory of one launch (largest drop of MemAvailable, or its max RSS if larger), MiB in sessions ${sessionsText}: ${footprintPaths
        .map((path) => `${path} ${p.memory.map((m) => mib(m.footprintKb[path])).join(', ')}`)
        .join('; ')}${available}.`
    : null;
  return {
    title: p.title,
    opening: [
      paragraph(`**Question.** ${p.question}`),
      list(answer(p)),
      ...(rateSentence(p) ? [paragraph(rateSentence(p)!)] : []),
      ...(openLoopSentence(p) ? [paragraph(openLoopSentence(p)!)] : []),
      ...(sharedMountSentence(p) ? [paragraph(sharedMountSentence(p)!)] : []),
      curveTable(p),
      paragraph(
        [
          `Scope: one host, ${p.sessions} sessions × ${p.rounds} rounds; ${p.sessions < 3 ? 'with fewer than 3 sessions no between-session interval is estimated, and figures stand alone' : 'an interval covers the sessions of this run on this host, not other hosts or host classes'}.`,
          'A knee is the smallest N whose P50 is above the sequential one by more than the practical margin; its range is made of per-level 95% intervals, a range of levels sampled, not a continuous interval.',
        ].join(' '),
      ),
    ],
    sections: [
      ...section('The curve', [
        p.plotFile ? figure(p.plotFile, 'P50 of per-launch Ready against N, per path, with between-session 95% intervals; log axes') : null,
      ]),
      ...section('Open loop: arrivals at a fixed rate', [openLoopTable(p), lateReleases(p)]),
      // each path's knee is said once, in the first screen's answer
      ...section('Claims checked', [list(claims(p))]),
      ...section('How it was measured', [
        p.motivation ? paragraph(p.motivation) : null,
        list(p.paths.map((path) => `**${path}**: ${p.pathDescriptions[path] ?? path}`)),
        sentences([
          'Closed loop: the launch helper reads its clock once, spawns the N launches back to back and times each from that release; a launch that fails or times out is a recorded failure, never dropped.',
          ...(p.openLoop.length
            ? [
                'Open loop: the helper releases launch i of a train i/rate s after the first, whether or not the earlier ones are done, and times each from its own release; a launch is in flight from its release to its Completion.',
              ]
            : []),
          'Each round visits every path at every N once, in a balanced order of its own; each burst follows the settle.',
          'Before a session’s first burst, one launch of each path ran untimed while MemAvailable was polled; a level whose burst would need more than half of what is available is refused before it starts.',
        ]),
        memory ? paragraph(memory) : null,
      ]),
      ...section('Not measured', [list(p.unmeasured)]),
      ...section('Notes', [p.notes.length ? list(p.notes) : null]),
    ],
    appendix: [
      ...section('Comparisons, decided by the judge', [judgeTable(p)]),
      ...section('Tail percentiles', tailsBlocks(p)),
      ...section('Sessions and host noise', hostNoiseBlocks(p.sessionRecords, p.noise ? { noise: p.noise } : {}, 'here')),
      ...section('Provenance', [sentences(['The stages this report was rendered from:']), list(p.provenance)]),
    ],
  };
}

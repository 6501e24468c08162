// Pure: where this run's Ready ratios hold across host classes (issue 43).
// Machines of one kind differ by class (stats/host-class.ts, by the canary):
// a same-key replicate on a PTI-on class had every cell ×1.91, yet most
// ratios a / b of two paths moved far less. So claims that travel are made on
// the ratio scale:
// - The between-class spread of a run's log ratio a / b comes from the
//   archive's same-key runs on two or more classes (runs whose sample stage
//   had one key, so only the host differs): for each pair of classes of one
//   key (the newest run of each), d = ln(a/b) of one − ln(a/b) of the other,
//   over every Ready difference both have; sd² = Σ d² / (2m), m the number
//   of such d, its degrees of freedom (a run's sampling error is in it, as it
//   is in any rerun). Pooled over the comparisons: one figure, said once.
// - Each Ready difference of this run gets the interval where its ratio
//   should land on another class, ratio · exp(± t(0.975, m) · √2 · sd), and
//   "holds on k of K classes": K the classes measured that have the
//   difference (this run's, and the newest archived run of each other class,
//   whatever its key, since designs change between runs: said so), k those
//   where the direction (lower, higher, or none) is this run's and, with a
//   spread, the ratio lies in this run's interval. This run's own class
//   counts as held.
// A run or this run without a canary cannot be placed in a class: left out.
import { csvRecords } from '../db/csv-records.js';
import { hostClasses, type CanaryMedians } from '../stats/host-class.js';
import { studentTQuantile } from '../stats/student-t.js';

/** An archived run as its published files give it. */
export interface PublishedRun {
  id: string;
  /** run.json's sample stage key; null when it names none. */
  sampleKey: string | null;
  canary: CanaryMedians | null;
  /** Ready P50 per cell `cohort|path|state`. */
  p50: Map<string, number>;
  /** Per Ready difference `cohort|state|a|b`: its own verdict's direction (1: a higher, −1: a lower, 0: none). */
  direction: Map<string, -1 | 0 | 1>;
}

export interface OwnRun {
  sampleKey: string;
  canary: CanaryMedians | null;
  p50: Map<string, number>;
  direction: Map<string, -1 | 0 | 1>;
}

export interface ClassHolding {
  run: string;
  ratio: number;
  direction: -1 | 0 | 1;
  holds: boolean;
}

export interface CrossClassDifference {
  cohort: string;
  state: string;
  a: string;
  b: string;
  /** This run's P50 ratio a / b. */
  ratio: number;
  /** Where it should land on another class; null without a between-class spread. */
  low: number | null;
  high: number | null;
  /** Classes measured with this difference, this run's included, and those where it held. */
  classes: number;
  holds: number;
  others: ClassHolding[];
}

export interface CrossClassResult {
  /** The newest archived run of each other class (by the canary). */
  otherClassRuns: string[];
  /** The between-class spread of a run's log ratio; null without same-key runs on two classes. */
  between: { logSd: number; df: number; pairs: { runs: [string, string]; differences: number }[] } | null;
  differences: CrossClassDifference[];
}

/** exp(t((1 + c) / 2, df) · √2 · sd): another class's ratio should land within ×1/f–×f of this run's. */
export function crossClassFactor(b: { logSd: number; df: number }, confidence = 0.95): number {
  return Math.exp(studentTQuantile((1 + confidence) / 2, b.df) * Math.SQRT2 * b.logSd);
}

const cellKey = (cohort: string, path: string, state: string): string => `${cohort}|${path}|${state}`;
export const differenceKeyOf = (cohort: string, state: string, a: string, b: string): string => `${cohort}|${state}|${a}|${b}`;

function rowsOf(text: string): Record<string, string>[] {
  const [head, ...rest] = csvRecords(text);
  if (!head) return [];
  return rest.map((r) => Object.fromEntries(head.fields.map((h, i) => [h, r.fields[i] ?? ''])));
}

/** An archived run from its statistics.csv and differences.csv texts (Ready rows only). */
export function publishedRunOf(
  id: string,
  sampleKey: string | null,
  canary: CanaryMedians | null,
  statisticsCsv: string,
  differencesCsv: string,
): PublishedRun {
  const p50 = new Map<string, number>();
  for (const r of rowsOf(statisticsCsv)) {
    const v = Number(r['p50']);
    if (r['metric'] === 'ready' && r['p50'] !== '' && v > 0) p50.set(cellKey(r['cohort']!, r['path']!, r['state']!), v);
  }
  const direction = new Map<string, -1 | 0 | 1>();
  for (const r of rowsOf(differencesCsv)) {
    if (r['metric'] !== 'ready' || (r['kind'] ?? 'median_difference') !== 'median_difference' || (r['factor'] ?? '') !== '') continue;
    const verdict = r['verdict'];
    const sign = (v: number): -1 | 0 | 1 => (v > 0 ? 1 : v < 0 ? -1 : 0);
    const d: -1 | 0 | 1 =
      verdict === 'higher'
        ? 1
        : verdict === 'lower'
          ? -1
          : verdict === 'equivalent' || verdict === 'undecided'
            ? 0
            : r['detected'] === 'true'
              ? sign(Number(r['value']))
              : 0;
    direction.set(differenceKeyOf(r['cohort']!, r['state']!, r['a']!, r['b']!), d);
  }
  return { id, sampleKey, canary, p50, direction };
}

/** This run as the rule reads it: its Ready P50s and its Ready differences' verdicts. */
export function ownRunOf(
  sampleKey: string,
  canary: CanaryMedians | null,
  cells: readonly { cohort: string; path: string; state: string; metric: string; p50Ms: number | null }[],
  differences: readonly { cohort: string; state: string; a: string; b: string; metric: string; factor?: string; verdict?: { verdict: string } }[],
): OwnRun {
  const p50 = new Map<string, number>();
  for (const c of cells) if (c.metric === 'ready' && c.p50Ms !== null && c.p50Ms > 0) p50.set(cellKey(c.cohort, c.path, c.state), c.p50Ms);
  const direction = new Map<string, -1 | 0 | 1>();
  for (const d of differences) {
    if (d.metric !== 'ready' || d.factor) continue;
    direction.set(differenceKeyOf(d.cohort, d.state, d.a, d.b), d.verdict?.verdict === 'higher' ? 1 : d.verdict?.verdict === 'lower' ? -1 : 0);
  }
  return { sampleKey, canary, p50, direction };
}

const ratioOf = (p50: Map<string, number>, key: string): number | null => {
  const [cohort, state, a, b] = key.split('|') as [string, string, string, string];
  const pa = p50.get(cellKey(cohort, a, state));
  const pb = p50.get(cellKey(cohort, b, state));
  return pa && pb ? pa / pb : null;
};

export function crossClass(own: OwnRun, runs: readonly PublishedRun[], confidence = 0.95): CrossClassResult | null {
  if (!own.canary) return null;
  const placed = runs.filter((r) => r.canary);
  const all: { id: string; sampleKey: string | null; canary: CanaryMedians; p50: Map<string, number>; direction: Map<string, -1 | 0 | 1> }[] = [
    { id: '', ...own, canary: own.canary },
    ...placed.map((r) => ({ ...r, canary: r.canary! })),
  ];
  const classes = hostClasses(
    all.map((r) => r.canary),
    [0],
  ).classes;
  const classOf = new Map<number, number>();
  classes.forEach((members, c) => members.forEach((i) => classOf.set(i, c)));
  const ownClass = classOf.get(0)!;
  const newest = (members: number[]): number => members.filter((i) => i > 0).sort((x, y) => (all[x]!.id < all[y]!.id ? 1 : -1))[0] ?? members[0]!;
  const others = classes.map((members, c) => (c === ownClass ? null : newest(members))).filter((i): i is number => i !== null && i > 0);

  // the between-class spread, from same-key runs on two or more classes
  const pairs: { runs: [string, string]; differences: number }[] = [];
  let ss = 0;
  let m = 0;
  const byKey = new Map<string, number[]>();
  all.forEach((r, i) => {
    if (r.sampleKey) byKey.set(r.sampleKey, [...(byKey.get(r.sampleKey) ?? []), i]);
  });
  for (const members of byKey.values()) {
    const perClass = [...new Set(members.map((i) => classOf.get(i)!))].map((c) => newest(members.filter((i) => classOf.get(i) === c)));
    for (let x = 0; x < perClass.length; x++)
      for (let y = x + 1; y < perClass.length; y++) {
        const [p, q] = [all[perClass[x]!]!, all[perClass[y]!]!];
        let n = 0;
        for (const key of new Set([...p.direction.keys(), ...q.direction.keys()])) {
          const rp = ratioOf(p.p50, key);
          const rq = ratioOf(q.p50, key);
          if (rp === null || rq === null) continue;
          ss += (Math.log(rp) - Math.log(rq)) ** 2;
          n++;
        }
        if (n) pairs.push({ runs: [p.id || 'this run', q.id || 'this run'], differences: n });
        m += n;
      }
  }
  const between = m > 0 ? { logSd: Math.sqrt(ss / (2 * m)), df: m, pairs } : null;
  const half = between ? Math.log(crossClassFactor(between, confidence)) : null;

  const differences: CrossClassDifference[] = [];
  for (const [key, dir] of own.direction) {
    const ratio = ratioOf(own.p50, key);
    if (ratio === null) continue;
    const [cohort, state, a, b] = key.split('|') as [string, string, string, string];
    const low = half === null ? null : ratio * Math.exp(-half);
    const high = half === null ? null : ratio * Math.exp(half);
    const held: ClassHolding[] = [];
    for (const i of others) {
      const r = all[i]!;
      const theirs = ratioOf(r.p50, key);
      const d = r.direction.get(key);
      if (theirs === null || d === undefined) continue;
      const inside = low === null || high === null || (theirs >= low && theirs <= high);
      held.push({ run: r.id, ratio: theirs, direction: d, holds: d === dir && inside });
    }
    differences.push({ cohort, state, a, b, ratio, low, high, classes: 1 + held.length, holds: 1 + held.filter((h) => h.holds).length, others: held });
  }
  // nothing measured beyond this run's class: nothing to say
  if (!others.length && !between) return null;
  return { otherClassRuns: others.map((i) => all[i]!.id), between, differences };
}

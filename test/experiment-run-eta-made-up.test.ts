// The whole-run ETA (harness/experiment/run-eta.ts) driven by a fake clock on
// made-up launch durations: sessions of cold and warm launches of a fast and
// a slow path, with services started before and closed after each session.
// The estimator is our own logic, so the clock and the launches are fakes.
import test from 'ava';
import type { SessionRecord } from '../harness/contract/exchange-files.js';
import { etaCheck, sessionEta } from '../harness/experiment/eta-check.js';
import { addRounds, cellOf, RunEta, type PlannedSession, type ShownEstimate } from '../harness/experiment/run-eta.js';
import { formatEta } from '../harness/experiment/progress-line.js';

const PATHS = ['fast', 'slow'];
const STATES = ['cold', 'warm'];
/** Made-up durations (ms) per cell: cold costs more than warm, the slow path more than the fast one. */
const DURATION_MS: Record<string, number> = { 'fast/cold': 300, 'fast/warm': 100, 'slow/cold': 2000, 'slow/warm': 600 };
const OPENING_MS = 5000; // services and preflight before the first launch
const CLOSING_MS = 1000; // the close after the last launch

interface Launch {
  path: string;
  state: string;
}

/** One session's launches in a made-up order: the fast path's rounds first, then the slow path's (so the pace so far misleads a naive ETA). */
function sessionOrder(rounds: number): Launch[] {
  const out: Launch[] = [];
  for (const path of PATHS) for (let r = 0; r < rounds; r++) for (const state of STATES) out.push({ path, state });
  return out;
}

function plan(sessions: number, rounds: number, confirmation = false): PlannedSession[] {
  const out: PlannedSession[] = [];
  for (let s = 1; s <= sessions; s++) out.push({ session: s, launches: addRounds(new Map(), PATHS, STATES, rounds) });
  if (confirmation) out.push({ session: sessions + 1, launches: addRounds(new Map(), PATHS, STATES, rounds), upperBound: true });
  return out;
}

/** Drives sessions on a fake clock; `at` is called after every launch with the estimate and the true remaining time of the run and of the session. */
function drive(
  sessions: number,
  rounds: number,
  jitter: () => number,
  at: (e: ReturnType<RunEta['estimate']>, truth: { runMs: number; sessionMs: number }, where: { session: number; launch: number }) => void,
  ended: (session: number, shown: ShownEstimate | null, startMs: number, endMs: number) => void = () => undefined,
): void {
  let clock = 0;
  const eta = new RunEta(plan(sessions, rounds), () => clock);
  // The whole timeline first, so the true remaining time is known at every point.
  let t = 0;
  const events: { session: number; starts: number; launches: { l: Launch; endMs: number }[]; endMs: number }[] = [];
  for (let s = 1; s <= sessions; s++) {
    const starts = t;
    t += OPENING_MS * jitter();
    const launches = sessionOrder(rounds).map((l) => {
      t += DURATION_MS[`${l.path}/${l.state}`]! * jitter();
      return { l, endMs: t };
    });
    t += CLOSING_MS * jitter();
    events.push({ session: s, starts, launches, endMs: t });
  }
  const runEndMs = t;
  for (const e of events) {
    clock = e.starts;
    eta.startSession(e.session);
    e.launches.forEach(({ l, endMs }, i) => {
      clock = endMs;
      eta.launched(l.path, l.state);
      at(eta.estimate(), { runMs: runEndMs - endMs, sessionMs: e.endMs - endMs }, { session: e.session, launch: i + 1 });
    });
    clock = e.endMs;
    ended(e.session, eta.endSession(), e.starts, e.endMs);
  }
}

test('with steady made-up durations, after the first session the ETA is the exact remaining time of the run and of the session, weighted by the cells left', (t) => {
  let checked = 0;
  drive(
    3,
    4,
    () => 1,
    (e, truth, where) => {
      if (where.session === 1) return;
      t.true(Math.abs(e.runMs - truth.runMs) < 1e-6, `session ${where.session} launch ${where.launch}: ${e.runMs} vs ${truth.runMs}`);
      t.true(Math.abs(e.sessionMs - truth.sessionMs) < 1e-6, `session ${where.session} launch ${where.launch}: ${e.sessionMs} vs ${truth.sessionMs}`);
      checked++;
    },
  );
  t.is(checked, 2 * 16);
});

test('the cell weighting beats the pace so far: half-way through a session whose fast launches came first, the ETA counts the slow ones left (made-up durations)', (t) => {
  let checked = false;
  drive(
    2,
    4,
    () => 1,
    (e, truth, where) => {
      if (where.session !== 2 || where.launch !== 8) return; // the fast path's 8 launches done, the slow path's 8 to go
      // The old ETA: this session's pace so far (its opening included) times the launches left.
      const naiveMs = ((OPENING_MS + 4 * 300 + 4 * 100) / 8) * 8;
      t.true(Math.abs(naiveMs - truth.sessionMs) / truth.sessionMs > 0.2, 'the made-up order makes the pace misleading');
      t.true(Math.abs(e.sessionMs - truth.sessionMs) < 1e-6, `${e.sessionMs} vs ${truth.sessionMs}`);
      checked = true;
    },
  );
  t.true(checked);
});

test('with durations jittered by up to 30% (made-up, seeded), the run ETA after the first session is within 20% of the remaining time', (t) => {
  let seed = 42;
  const jitter = (): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return 0.7 + 0.6 * (seed / 2 ** 31);
  };
  let worst = 0;
  drive(3, 10, jitter, (e, truth, where) => {
    if (where.session === 1 || truth.runMs < 10_000) return; // the last seconds: any estimate is far off in relative terms
    worst = Math.max(worst, Math.abs(e.runMs - truth.runMs) / truth.runMs);
  });
  t.true(worst > 0, 'the jitter makes the estimate inexact');
  t.true(worst < 0.2, `worst relative error ${worst.toFixed(3)}`);
});

test('each session hands its record the ETA its line showed last and when; checked after the run against the real remaining time, it is exact after the first session with steady made-up durations', (t) => {
  const records: SessionRecord[] = [];
  const shownAt: number[] = [];
  let lastShownMs = 0;
  drive(
    3,
    4,
    () => 1,
    (e) => {
      lastShownMs = e.runMs;
    },
    (session, shown, startMs, endMs) => {
      t.truthy(shown);
      t.is(shown!.runMs, lastShownMs); // the last estimate the session made
      shownAt.push(shown!.atMs);
      const eta = sessionEta(shown)!;
      const iso = (ms: number): string => new Date(ms).toISOString();
      records.push({ session, attempt: 1, host: 'made-up', startedAt: iso(startMs), endedAt: iso(endMs), noise: {} as SessionRecord['noise'], eta });
    },
  );
  const rows = etaCheck(records.slice().reverse());
  t.deepEqual(
    rows.map((r) => r.session),
    [1, 2, 3],
  );
  const runEndMs = Date.parse(records.at(-1)!.endedAt);
  rows.forEach((r, i) => t.is(r.realMs, runEndMs - shownAt[i]!));
  t.not(rows[0]!.ratio, 1); // the first session knows no session overhead yet
  for (const r of rows.slice(1)) t.true(Math.abs(r.ratio - 1) < 1e-3, `session ${r.session}: ${r.ratio}`); // ms rounding
  t.is(sessionEta({ runMs: Number.NaN, sessionMs: Number.NaN, upperBound: false, atMs: 0 }), null); // before a timed launch: no figure to check
});

test('the line reads the run ETA with the session in brackets, ≤ while an undecided confirmation session is counted, and ? before a launch was timed', (t) => {
  let clock = 0;
  const eta = new RunEta(plan(2, 1, true), () => clock);
  eta.startSession(1);
  t.is(formatEta(eta.estimate()), 'ETA ?');
  clock = 5000;
  eta.launched('fast', 'cold'); // the opening: no launch timed yet
  t.is(formatEta(eta.estimate()), 'ETA ?');
  clock = 5100;
  eta.launched('fast', 'warm');
  const e = eta.estimate();
  t.true(e.upperBound);
  t.regex(formatEta(e), /^ETA ≤\d+s \(session \d+s\)$/);
  eta.dropSession(3); // the confirmation found nothing undecided
  t.false(eta.estimate().upperBound);
  t.regex(formatEta(eta.estimate()), /^ETA \d+s \(session \d+s\)$/);
  t.is(formatEta({ runMs: 25 * 60_000 + 1000, sessionMs: 3 * 60_000 + 1000, upperBound: false }), 'ETA 25m01s (session 3m01s)');
});

test('a cell counts launches by path and state', (t) => {
  const m = addRounds(new Map(), ['a', 'b'], ['cold', 'warm'], 3);
  t.is(m.size, 4);
  t.is(m.get(cellOf('a', 'warm')), 3);
  t.is(addRounds(m, ['a'], ['warm'], 2).get(cellOf('a', 'warm')), 5);
});

test('a session added during the run (sampling until decided) gets its own ETA from the launches it will make, not 0 (made-up durations)', (t) => {
  let clock = 0;
  const eta = new RunEta(plan(1, 2), () => clock);
  const run = (session: number): void => {
    eta.startSession(session);
    clock += OPENING_MS;
    for (const l of sessionOrder(2)) {
      clock += DURATION_MS[`${l.path}/${l.state}`]!;
      eta.launched(l.path, l.state);
    }
    clock += CLOSING_MS;
    eta.endSession();
  };
  run(1);
  // the rule adds session 2 over the slow path alone, 2 rounds: 2 cold and 2 warm launches of it
  eta.addSession({ session: 2, launches: addRounds(new Map(), ['slow'], STATES, 2) });
  t.is(eta.estimate().runMs, OPENING_MS + CLOSING_MS + 2 * 2000 + 2 * 600, 'before it starts: its overhead and its launches');
  eta.startSession(2);
  clock += OPENING_MS;
  clock += 2000;
  eta.launched('slow', 'cold');
  const e = eta.estimate();
  t.is(e.sessionMs, 2000 + 2 * 600 + CLOSING_MS, 'one slow cold and two slow warm launches left, then the close');
  t.is(e.runMs, e.sessionMs);
});

// "What stopping saved" (harness/report/stopping-section.ts) from an
// adaptive.json and the run's launches and session records: the formal
// launches and minutes against the fixed design of equal power (or, without
// one, of max_sessions sessions) over every cell, and the comparisons that
// ran out of budget. Made-up rows: the arithmetic and wording are our own.
import test from 'ava';
import type { SessionRecord } from '../harness/contract/exchange-files.js';
import type { SampleRow } from '../harness/db/sample-row.js';
import { stoppingFigures, stoppingSection, type AdaptiveRecordFile } from '../harness/report/stopping-section.js';
import { madeUpRow } from './helpers/made-up-row.js';

const record: AdaptiveRecordFile = {
  format: 'benchgraph-adaptive/1',
  minSessions: 3,
  maxSessions: 6,
  metric: 'ready_ms',
  margin: 0.05,
  sessionsRun: 4,
  comparisons: [
    { cohort: 'shell', state: 'cold', a: 'docker', b: 'lazy', verdict: 'lower', decided: true, sessions: 3 },
    { cohort: 'numpy', state: 'warm', a: 'docker', b: 'lazy', verdict: 'undecided', decided: false, sessions: 6 },
  ],
};

/** Sessions 1-3 over both cohorts (2 arms x 2 rounds each), session 4 over numpy only: 8 + 8 + 8 + 4 formal launches. */
function launches(): SampleRow[] {
  const rows: SampleRow[] = [];
  for (let session = 1; session <= 4; session++)
    for (const cohort of session === 4 ? ['numpy'] : ['shell', 'numpy'])
      for (const path of ['docker', 'lazy'])
        for (let round = 1; round <= 2; round++) rows.push(madeUpRow({ session, cohort, path, round, phase: 'formal', state: 'cold' }));
  rows.push(madeUpRow({ session: 2, cohort: 'shell', path: 'docker', round: 1, phase: 'preflight', state: 'cold' }));
  return rows;
}

const sessions = [1, 2, 3, 4].map(
  (s) =>
    ({
      session: s,
      startedAt: new Date(Date.UTC(2026, 0, 1, 0, s * 10)).toISOString(),
      endedAt: new Date(Date.UTC(2026, 0, 1, 0, s * 10 + 5)).toISOString(),
    }) as SessionRecord,
);

test('a fixed design runs every cell for its sessions; its minutes scale with its launches', (t) => {
  const f = stoppingFigures(record, launches(), sessions, 6);
  t.is(f.launches, 28);
  t.is(f.fixedLaunches, 8 * 6);
  t.is(f.minutes, 20);
  t.is(f.fixedMinutes, (20 * 48) / 28);
  t.deepEqual(
    f.undecided.map((c) => `${c.cohort} ${c.a}-${c.b}`),
    ['numpy docker-lazy'],
  );
});

test('the section names the comparisons that ran out of budget, and is absent for a run that was not adaptive', (t) => {
  const [s] = stoppingSection(record, launches(), sessions, null);
  t.is(s!.title, 'What stopping saved');
  const text = JSON.stringify(s);
  // which one is the summary table's "undecided" cell, not named again
  t.regex(text, /1 comparison ran out of budget \(max_sessions reached\) and remained undecided after 6 sessions: the summary's \\"undecided\\" cells\./);
  t.regex(text, /"28","48","58%"/);
  t.deepEqual(stoppingSection(null, launches(), sessions, null), []);
  const allDecided = { ...record, comparisons: record.comparisons.slice(0, 1) };
  t.regex(JSON.stringify(stoppingSection(allDecided, launches(), sessions, null)), /No comparison ran out of budget/);
});

test('with a fixed design of equal power the section sets the run against it, not against max_sessions', (t) => {
  const operating = { equalPowerFixed: { sessions: 3, launches: 24 } } as unknown as Parameters<typeof stoppingSection>[3];
  const text = JSON.stringify(stoppingSection(record, launches(), sessions, operating));
  t.regex(text, /fixed, 3 sessions, equal power/);
  t.regex(text, /"28","24","117%"/);
  t.regex(text, /the fewest of the same rounds whose between-session t finds a band-sized difference as often as this rule/);
});

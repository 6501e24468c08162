// The next run's costs, measured from the run's own launch start times (our
// own logic on made-up times), and the rounds multiple of a balanced order.
import test from 'ava';
import { balancedRoundsMultiple, measuredSessionCosts } from '../harness/analysis/session-costs.js';
import { williamsRows } from '../harness/experiment/williams-design.js';

const at = (s: number): string => new Date(Date.UTC(2026, 0, 1) + s * 1000).toISOString();

test('a session costs its preflight and warmup before the first formal launch, and a launch the spacing of formal starts (medians over sessions; made-up times)', (t) => {
  const c = measuredSessionCosts([
    { session: 1, firstStartedAt: at(0), firstFormalAt: at(45), lastFormalAt: at(45 + 199 * 2.75), formalLaunches: 200 },
    { session: 2, firstStartedAt: at(1000), firstFormalAt: at(1096), lastFormalAt: at(1096 + 199 * 2.93), formalLaunches: 200 },
    { session: 3, firstStartedAt: at(2000), firstFormalAt: at(2098), lastFormalAt: at(2098 + 199 * 3.07), formalLaunches: 200 },
  ]);
  t.is(c.preFormalMs, 96_000);
  t.is(Math.round(c.launchWallMs!), 2930);
  t.is(c.sessions, 3);
});

test('a session with no formal launch, or only one, gives no launch spacing; none at all gives nulls (made-up times)', (t) => {
  t.deepEqual(measuredSessionCosts([]), { launchWallMs: null, preFormalMs: null, sessions: 0 });
  const c = measuredSessionCosts([
    { session: 1, firstStartedAt: at(0), firstFormalAt: null, lastFormalAt: null, formalLaunches: 0 },
    { session: 2, firstStartedAt: at(10), firstFormalAt: at(20), lastFormalAt: at(20), formalLaunches: 1 },
  ]);
  t.is(c.launchWallMs, null);
  t.is(c.preFormalMs, 10_000);
});

test("the rounds multiple is the least common multiple of every cohort's Williams row count", (t) => {
  for (const n of [1, 2, 3, 4, 5, 6]) t.is(balancedRoundsMultiple([n]), williamsRows(n).length, `${n} paths`);
  t.is(balancedRoundsMultiple([5, 4]), 20);
  t.is(balancedRoundsMultiple([5, 5]), 10);
  t.is(balancedRoundsMultiple([]), 1);
});

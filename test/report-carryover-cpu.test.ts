// carryoverCpu on made-up sample rows (our own logic): a cell flagged for its
// previous path whose launches do their own work gets its user and system CPU
// by previous path; one whose work runs elsewhere (docker's pull in the
// engine: tiny launch CPU) and one not flagged get nothing.
import test from 'ava';
import type { CellStatistics } from '../harness/analysis/analysis-result.js';
import type { SampleRow } from '../harness/db/sample-row.js';
import { carryoverCpu } from '../harness/report/carryover-cpu.js';
import { madeUpRow } from './helpers/made-up-row.js';

const cell = (path: string, flagged: boolean): CellStatistics =>
  ({
    cohort: 'numpy',
    path,
    state: 'cold',
    metric: 'ready',
    predecessor: {
      flagged,
      fastAfter: 'docker',
      slowAfter: 'gvisor-full',
      byPredecessor: [],
      ratio: 1.5,
      low: 1.1,
      high: 2,
      confidence: 0.99,
      pairs: 6,
      resamples: 100,
    },
  }) as unknown as CellStatistics;

const row = (path: string, previous: string | null, user: number, sys: number, ready: number, ok = true): SampleRow =>
  madeUpRow({
    phase: 'formal',
    ok,
    cohort: 'numpy',
    path,
    state: 'cold',
    previous_path: previous,
    user_cpu_ms: user,
    sys_cpu_ms: sys,
    ready_ms: ready,
  });

test('made-up rows: medians of user and system CPU by previous path for a flagged cell doing its own work, none for the others', (t) => {
  const rows = [
    row('oci-full', 'docker', 3800, 950, 3500),
    row('oci-full', 'docker', 3820, 1000, 3600),
    row('oci-full', 'gvisor-full', 4000, 2900, 5400),
    row('oci-full', 'gvisor-full', 4020, 3000, 5500),
    row('oci-full', 'gvisor-full', 1, 1, 1, false),
    row('oci-full', null, 3900, 2600, 5100),
    row('docker', 'gvisor-full', 40, 20, 5800),
    row('gvisor-lazy', 'docker', 3000, 1000, 4400),
  ];
  const out = carryoverCpu([cell('oci-full', true), cell('docker', true), cell('gvisor-lazy', false)], rows);
  t.is(out.length, 1);
  t.is(out[0]!.path, 'oci-full');
  t.deepEqual(
    out[0]!.byPredecessor.map((g) => [g.previous, g.n, g.userMs, g.sysMs]),
    [
      [null, 1, 3900, 2600],
      ['docker', 2, 3810, 975],
      ['gvisor-full', 2, 4010, 2950],
    ],
  );
});

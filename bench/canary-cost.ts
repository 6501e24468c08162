// Benchmark (not a test): the host canary's cost per session (design.canary),
// against the 2% budget of a default-experiment session (issue 28). Runs the
// canary alone RUNS times (each as a session would: its own launch helper, a
// fresh journal, the data folder DIR), then prints the median wall time, the
// range, each piece's median completion, and the share of a session of
// SESSION_MIN minutes (default 10, the default experiment's).
// Run: npx tsc -p . && node dist/bench/canary-cost.js [RUNS] [DIR] [SESSION_MIN]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SampleJournal } from '../harness/db/sample-journal.js';
import { runHostCanary } from '../harness/experiment/host-canary.js';
import { median } from '../harness/stats/quantile.js';

const runs = Number(process.argv[2] ?? 5);
const dataDir = process.argv[3] ?? tmpdir();
const sessionMin = Number(process.argv[4] ?? 10);

const walls: number[] = [];
const byPiece = new Map<string, number[]>();
for (let i = 1; i <= runs; i++) {
  const dir = mkdtempSync(join(tmpdir(), 'bg-canary-cost-'));
  const journal = await SampleJournal.open(join(dir, 'samples.duckdb'));
  try {
    const close = await runHostCanary({
      on: true,
      experiment: 'canary-cost',
      session: 1,
      attempt: 1,
      dataDir,
      signal: new AbortController().signal,
      journal,
      log: (line) => {
        if (/failed/.test(line)) console.error(line);
      },
    });
    walls.push(close().canary!.wallMs);
    for (const r of await journal.rows()) {
      const v = r['completion_ms'];
      if (typeof v === 'number') byPiece.set(String(r['path']), [...(byPiece.get(String(r['path'])) ?? []), v]);
    }
  } finally {
    await journal.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
const m = median(walls);
console.log(
  `canary wall time per session: median ${(m / 1000).toFixed(2)} s over ${runs} runs (range ${(Math.min(...walls) / 1000).toFixed(2)}–${(Math.max(...walls) / 1000).toFixed(2)} s), ` +
    `${((m / (sessionMin * 60_000)) * 100).toFixed(2)}% of a ${sessionMin}-minute session (budget 2%)`,
);
for (const [piece, values] of byPiece) console.log(`  ${piece}: median completion ${median(values).toFixed(2)} ms (n=${values.length})`);

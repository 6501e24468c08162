// Fault on real parts (root only; CI runs it as root): SIGINT at seeded random
// moments of real-mini runs. Each moment forces the stage it falls in (so a
// stage frozen by an earlier iteration runs again), waits for the stage's log
// line, waits a seeded random delay, and sends SIGINT. After each: zero
// leftovers. At the end: a clean run and a clean audit. The test prints which
// moments were hit. BENCHGRAPH_SIGINT_MOMENTS (default 20) and
// BENCHGRAPH_SIGINT_SEED (default 12) change how many and which.
import test from 'ava';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, startCli, tempDir } from './helpers/cli.js';
import { writePipelineVariant } from './helpers/pipeline-variant.js';
import { mountsUnder } from '../harness/process/mount-table.js';
import { processesMentioning } from './helpers/processes.js';
import { seededRandom } from '../harness/stats/seeded-random.js';

const isRoot = process.getuid?.() === 0;
const rootTest = isRoot ? test : test.skip;
if (!isRoot) console.warn('fault-sigint-moments: skipped, needs root; CI runs it as root');

interface Moment {
  name: string;
  force: string;
  at: RegExp;
  /** Upper bound of the random delay after the line, ms. */
  jitterMs: number;
}

const MOMENTS: Moment[] = [
  { name: 'pin', force: 'pin', at: /▶ pin \(pin\) running/, jitterMs: 1500 },
  { name: 'prepare', force: 'prepare', at: /▶ prepare \(prepare\) running/, jitterMs: 4000 },
  { name: 'services starting', force: 'sample', at: /starting service (registry|cache|engine)/, jitterMs: 300 },
  { name: 'warmup', force: 'sample', at: /▶ warmup \(warmup\) running/, jitterMs: 1000 },
  { name: 'mid-launch', force: 'sample', at: /shell formal round 1\//, jitterMs: 1500 },
  { name: 'mid-teardown (end of a round)', force: 'sample', at: /shell formal round 2\//, jitterMs: 40 },
  { name: 'analyze', force: 'analyze', at: /▶ analyze \(analyze\) running/, jitterMs: 100 },
  { name: 'report', force: 'report', at: /▶ report \(report\) running/, jitterMs: 300 },
];

/** The project's seeded generator (mulberry32), so the moments are the same on every machine for one seed. */
const prng = (seed: number): (() => number) => seededRandom(seed);

const ROUNDS = ['--set', 'design.rounds=3'];

rootTest('SIGINT at seeded random moments of real-mini runs leaves nothing behind each time, and a later run and audit are clean', async (t) => {
  const count = Number(process.env['BENCHGRAPH_SIGINT_MOMENTS'] ?? 20);
  const seed = Number(process.env['BENCHGRAPH_SIGINT_SEED'] ?? 12);
  t.timeout(count * 120_000 + 300_000);
  const random = prng(seed);
  const dir = tempDir('bg-fault-sigint-');
  writePipelineVariant(dir, 'real-mini.fragment.yaml');
  const hits: string[] = [];
  for (let i = 0; i < count; i++) {
    const m = MOMENTS[Math.floor(random() * MOMENTS.length)]!;
    const delayMs = Math.floor(random() * m.jitterMs);
    const child = startCli(['run', ...ROUNDS, '--force', m.force], dir);
    let stderr = '';
    let sent = false;
    child.stderr!.on('data', (b: Buffer) => {
      stderr += b.toString();
      if (!sent && m.at.test(stderr)) {
        sent = true;
        setTimeout(() => child.kill('SIGINT'), delayMs);
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    const hit = code === 130;
    hits.push(`${i + 1}. ${m.name} +${delayMs} ms: ${hit ? 'interrupted' : `not hit (exit ${code})`}`);
    t.true(code === 130 || code === 0, `${m.name}: exit ${code}: ${stderr.slice(-1500)}`);
    t.deepEqual(mountsUnder(dir), [], `${m.name}: nothing stays mounted`);
    t.deepEqual(processesMentioning(dir), [], `${m.name}: no process of the run is left`);
    const tmp = join(dir, '.data', 'tmp');
    t.deepEqual(existsSync(tmp) ? readdirSync(tmp) : [], [], `${m.name}: no temporary folder`);
    t.false(existsSync(join(dir, '.data', 'run.lock')), `${m.name}: the data lock is released`);
    // The engine folders this run made (named in its log; other runs on the machine make their own).
    const engines = [...stderr.matchAll(/private dockerd \(pid \d+\) on unix:\/\/(\S+)\/docker\.sock/g)].map((x) => x[1]!);
    t.deepEqual(
      engines.filter((e) => existsSync(e)),
      [],
      `${m.name}: no private engine folder`,
    );
  }
  t.log(`seed ${seed}, moments:\n${hits.join('\n')}`);
  const final = await runCli(['run', ...ROUNDS], dir);
  t.is(final.code, 0, final.stderr.slice(-2000));
  const audit = await runCli(['audit', ...ROUNDS], dir);
  t.is(audit.code, 0, audit.stdout + audit.stderr);
  t.deepEqual(mountsUnder(dir), []);
  if (mountsUnder(dir).length === 0) rmSync(dir, { recursive: true, force: true });
});

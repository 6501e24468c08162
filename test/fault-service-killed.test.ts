// Fault on real parts (root only; CI runs it as root): a service killed with
// SIGKILL in the middle of a real-mini sampling session.
import test from 'ava';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, startCli, tempDir } from './helpers/cli.js';
import { writePipelineVariant } from './helpers/pipeline-variant.js';
import { Database } from '../harness/db/duckdb.js';
import { mountsUnder } from '../harness/process/mount-table.js';
import { isAlive } from '../harness/process/pid.js';
import { processesMentioning } from './helpers/processes.js';

const isRoot = process.getuid?.() === 0;
const rootTest = isRoot ? test.serial : test.skip;
if (!isRoot) console.warn('fault-service-killed: skipped, needs root; CI runs it as root');

const ROUNDS = ['--set', 'design.rounds=4'];

interface Fault {
  service: string;
  kind: string;
  /** The log line that names the service's pid. */
  started: RegExp;
  /** Paths of real-mini that use it. */
  uses: string[];
}

const FAULTS: Fault[] = [
  { service: 'registry', kind: 'docker-registry', started: /service registry: docker-registry on 127\.0\.0\.1:\d+ \(pid (\d+)/g, uses: ['docker', 'oci-full'] },
  { service: 'cache', kind: 'nginx-files', started: /service cache: nginx on 127\.0\.0\.1:\d+ serving \S+ \(pid (\d+)/g, uses: ['lazy'] },
  { service: 'engine', kind: 'docker-engine', started: /service engine: private dockerd \(pid (\d+)/g, uses: ['docker'] },
];

for (const f of FAULTS) {
  rootTest(
    `${f.service} (${f.kind}) killed with SIGKILL mid-round: its launches fail naming it, the session stops at the end of the round with exit 1, nothing is left, and the next run resumes and audits clean`,
    async (t) => {
      t.timeout(400_000);
      const dir = tempDir(`bg-fault-${f.service}-`);
      // verify accepts failed samples here: the failures this fault causes are the record, not a reason to stop the report.
      writePipelineVariant(dir, 'real-mini.fragment.yaml', (y) => y.replace(/( +)uses: verify\n/, '$1uses: verify\n$1with: { allow_failed_samples: true }\n'));

      const child = startCli(['run', ...ROUNDS], dir);
      let stderr = '';
      let killed: number | null = null;
      child.stderr!.on('data', (b: Buffer) => {
        stderr += b.toString();
        // Round 1 of the cohort is done (one line per round): kill the registry during round 2.
        if (killed === null && /shell formal round 1\//.test(stderr)) {
          const all = [...stderr.matchAll(f.started)];
          killed = Number(all.at(-1)![1]);
          process.kill(killed, 'SIGKILL');
        }
      });
      const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
      t.not(killed, null, `the ${f.service} was killed mid-session: ` + stderr.slice(-1500));
      t.is(code, 1, stderr.slice(-2000));
      const failed = stderr.split('\n').filter((l) => l.startsWith('failed:'));
      t.is(failed.length, 1, stderr.slice(-2000));
      t.regex(failed[0]!, new RegExp(`service ${f.service} \\(${f.kind}, pid ${killed}\\) died: SIGKILL during formal round 2 of cohort shell`));
      t.log(failed[0]);

      // Nothing left behind by the interrupted session.
      t.false(isAlive(killed!));
      t.deepEqual(mountsUnder(dir), [], 'nothing stays mounted');
      t.deepEqual(processesMentioning(dir), [], 'no process of the run is left');
      // The engine folders this run made (named in its log; other runs on the machine make their own).
      const engines = [...stderr.matchAll(/private dockerd \(pid \d+\) on unix:\/\/(\S+)\/docker\.sock/g)].map((x) => x[1]!);
      t.true(engines.length > 0);
      t.deepEqual(
        engines.filter((e) => existsSync(e)),
        [],
        'the private engine folders are removed',
      );

      // Round 2 is complete in the journal: nothing dropped; the launches of paths using the service failed naming it.
      const work = join(dir, '.data', 'work', 'sample');
      const db = await Database.open(join(work, readdirSync(work)[0]!, 'samples.duckdb'), { readOnly: true });
      try {
        const rows = await db.all(`SELECT path, state, ok, failure_reason FROM samples WHERE phase = 'formal' AND round = 2 ORDER BY path, state`);
        t.is(rows.length, 6, 'every launch of the round is recorded');
        for (const r of rows.filter((x) => f.uses.includes(String(x['path'])))) {
          t.false(r['ok'] as boolean, `${String(r['path'])}/${String(r['state'])}`);
          t.regex(String(r['failure_reason']), new RegExp(`service ${f.service} \\(${f.kind}, pid \\d+\\) died: SIGKILL`));
        }
        const others = rows.filter((x) => !f.uses.includes(String(x['path'])));
        t.true(
          others.every((r) => r['ok'] === true),
          `paths that do not use ${f.service} go on: ` + JSON.stringify(others),
        );
        t.log(`round 2: ${rows.map((r) => `${String(r['path'])}/${String(r['state'])} ${r['ok'] ? 'ok' : 'failed'}`).join(', ')}`);
      } finally {
        db.close();
      }

      const again = await runCli(['run', ...ROUNDS], dir);
      t.is(again.code, 0, again.stderr.slice(-2000));
      t.regex(again.stderr, /shell: 2 formal rounds already complete, 2 to go/);
      const audit = await runCli(['audit', ...ROUNDS], dir);
      t.is(audit.code, 0, audit.stdout + audit.stderr);
      t.deepEqual(mountsUnder(dir), []);
      t.deepEqual(processesMentioning(dir), []);
      if (mountsUnder(dir).length === 0) rmSync(dir, { recursive: true, force: true });
    },
  );
}

rootTest(
  'rclone of a lazy pair killed with SIGKILL mid-round: that pair fails naming rclone, the next pair starts a fresh rclone and the session goes on, nothing is left, audit is clean',
  async (t) => {
    t.timeout(400_000);
    const dir = tempDir('bg-fault-rclone-');
    writePipelineVariant(dir, 'real-mini.fragment.yaml', (y) => y.replace(/( +)uses: verify\n/, '$1uses: verify\n$1with: { allow_failed_samples: true }\n'));
    const child = startCli(['run', ...ROUNDS], dir);
    let stderr = '';
    let killed: number | null = null;
    let poll: NodeJS.Timeout | null = null;
    const findRclonePid = (): number | null => {
      const work = join(dir, '.data', 'work', 'sample');
      try {
        for (const key of readdirSync(work))
          for (const s of readdirSync(join(work, key)).filter((x) => x.startsWith('session-')))
            for (const pair of readdirSync(join(work, key, s, 'pairs')).filter((p) => p.includes('.lazy.') && /\.f\d+\./.test(p)))
              try {
                // Once its FUSE mount is up: rclone is serving the pair.
                const lazy = join(work, key, s, 'pairs', pair, 'lazy');
                if (!mountsUnder(join(lazy, 'remote')).length) continue;
                const pid = Number(readFileSync(join(lazy, 'rclone.pid'), 'utf8').trim());
                if (pid > 0) return pid;
              } catch {
                /* not started yet */
              }
      } catch {
        /* not there yet */
      }
      return null;
    };
    child.stderr!.on('data', (b: Buffer) => {
      stderr += b.toString();
      if (poll === null && /shell formal round 1\//.test(stderr)) {
        poll = setInterval(() => {
          const pid = findRclonePid();
          if (pid !== null && killed === null) {
            killed = pid;
            process.kill(pid, 'SIGKILL');
            clearInterval(poll!);
          }
        }, 5);
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    if (poll) clearInterval(poll);
    t.not(killed, null, 'an rclone was killed mid-session: ' + stderr.slice(-1500));
    t.is(code, 0, stderr.slice(-2000));
    const sampleDir = join(dir, '.data', 'stages', 'sample');
    const db = await Database.open(join(sampleDir, readdirSync(sampleDir)[0]!, 'outputs', 'samples.duckdb'), { readOnly: true });
    try {
      const rows = await db.all(`SELECT round, state, ok, failure_reason FROM samples WHERE phase = 'formal' AND path = 'lazy' ORDER BY round, state`);
      const failed = rows.filter((r) => !r['ok']);
      t.log(
        rows.map((r) => `lazy round ${String(r['round'])} ${String(r['state'])}: ${r['ok'] ? 'ok' : String(r['failure_reason']).slice(0, 160)}`).join('\n'),
      );
      t.true(failed.length >= 1 && failed.length <= 2, 'the killed pair failed, no other');
      for (const r of failed) t.regex(String(r['failure_reason']), new RegExp(`rclone \\(pid ${killed}\\)`));
      t.is(rows.length, 8, 'no launch dropped (4 rounds, cold and warm)');
    } finally {
      db.close();
    }
    t.deepEqual(mountsUnder(dir), [], 'nothing stays mounted (the dead FUSE mount included)');
    t.deepEqual(processesMentioning(dir), [], 'no process of the run is left');
    const audit = await runCli(['audit', ...ROUNDS], dir);
    t.is(audit.code, 0, audit.stdout + audit.stderr);
    if (mountsUnder(dir).length === 0) rmSync(dir, { recursive: true, force: true });
  },
);

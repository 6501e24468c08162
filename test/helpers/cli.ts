// Runs the real `pipeline` command in a child process, for tests.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliArgv, CLI_NODE_FLAGS } from '../../harness/process/cli-argv.js';
import { installShutdownHandlers, onCleanup } from '../../harness/process/cleanup.js';
import { removeScratch } from '../../harness/process/safe-remove.js';

export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const cliPath = join(projectRoot, 'bin', 'pipeline.js');
/** The Node flags every `pipeline` runs with (see harness/process/cli-argv.ts): give them before cliPath. */
export { CLI_NODE_FLAGS };

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

// A Ctrl-C of the suite reaches every process of its group: a test file's worker then runs
// the product's undo path (services and mounts its tests started in-process), waits for the
// commands its tests started to finish their own undo, and exits, removing its temporary
// folders. A command still running when the worker exits otherwise (a test that timed out, a
// hang) is stopped by its pid: nothing a test started outlives the suite.
installShutdownHandlers();
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

export function startCli(args: readonly string[], cwd: string): ChildProcess {
  const [node, ...argv] = cliArgv(args);
  const child = spawn(node!, argv, { cwd, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  // on a signal the undo path waits for the command, which got the signal too and undoes its own work
  const forget = onCleanup(`pipeline ${args[0] ?? ''} (pid ${child.pid})`, () => exited);
  child.once('exit', () => {
    running.delete(child);
    void forget();
  });
  return child;
}

/**
 * A command still running after this long is taken as hung, stopped by its pid, and its test fails
 * saying so. Not a speed limit: the slowest test of the suite took 55 s on a quiet machine and 60 s
 * beside a CPU-heavy job (fresh clones, 2026-12-07). A guard, because AVA's own inactivity timeout can miss a hang:
 * a test with a longer t.timeout() swallows the one moment it fires, and a CI run then waits
 * out its whole budget (as one did on a Node exit deadlock, harness/process/cli-argv.ts).
 */
const HUNG_AFTER_MS = 15 * 60_000;

export function runCli(args: readonly string[], cwd: string): Promise<CliResult> {
  return new Promise((res) => {
    const child = startCli(args, cwd);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (b) => (stdout += b));
    child.stderr!.on('data', (b) => (stderr += b));
    const hung = setTimeout(() => {
      stderr += `\ntest helper: pipeline ${args.join(' ')} still ran after ${HUNG_AFTER_MS / 60_000} min: taken as hung and stopped (pid ${child.pid})\n`;
      child.kill('SIGKILL');
    }, HUNG_AFTER_MS);
    hung.unref();
    child.on('close', (code, signal) => {
      clearTimeout(hung);
      res({ code, signal, stdout, stderr });
    });
  });
}

const made: string[] = [];
process.on('exit', () => {
  // never into a mount a test left behind: that is named instead
  for (const d of made) for (const m of removeScratch(d)) process.stderr.write(`test helper: ${d} not removed: ${m} is still mounted\n`);
});

/** A temporary folder removed when the test file's worker exits. */
export function tempDir(prefix = 'benchgraph-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** A temporary project folder holding a copy of pipelines/smoke.yaml as pipeline.yaml. */
export function smokeProject(edit?: { replace: string; with: string }): string {
  const dir = tempDir();
  cpSync(join(projectRoot, 'pipelines', 'smoke.yaml'), join(dir, 'pipeline.yaml'));
  if (edit) {
    // a test that edits the smoke pipeline fails here, not later, when the text it edits has changed
    const file = join(dir, 'pipeline.yaml');
    const text = readFileSync(file, 'utf8');
    if (!text.includes(edit.replace)) throw new Error(`pipelines/smoke.yaml no longer holds ${JSON.stringify(edit.replace)}: update the test`);
    writeFileSync(
      file,
      text.replace(edit.replace, () => edit.with),
    ); // the text as given, no $& patterns
  }
  return dir;
}

/** Lines of .data/executions.log: one per stage execution. */
export function executions(dir: string): string[] {
  const file = join(dir, '.data', 'executions.log');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').trim().split('\n').filter(Boolean);
}

export function stagesRan(result: CliResult): string[] {
  const json = JSON.parse(result.stdout.trim().split('\n').at(-1)!) as { stages: { id: string; action: string }[] };
  return json.stages.filter((s) => s.action === 'ran').map((s) => s.id);
}

/** Fast settings for tests that only need a complete smoke run. */
export const QUICK = ['--set', 'design.rounds=3', '--set', 'analysis.bootstrap.resamples=200'];

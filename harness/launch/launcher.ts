// Node client of the C launch helper (launcher.c). One helper process per run;
// it takes one launch request at a time, or one burst of N launches released
// together, and returns raw facts, which launch-outcome.ts turns into a
// LaunchResult. Node never times a launch.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onCleanup } from '../process/cleanup.js';
import { UserError } from '../errors.js';
import { launchOutcome } from './launch-outcome.js';
import type { HelperResult, LaunchRequest, LaunchResult } from './launch-types.js';
import { encodeRequest, requestProblem } from './request-frame.js';

export type { LaunchRequest, LaunchResult, LaunchState } from './launch-types.js';

const PROTOCOL = 4;
/** The largest burst the helper takes (launcher.c MAX_BURST). */
export const MAX_BURST = 128;

/**
 * One launch of a burst: every time is from its release, which in a closed loop is the burst's one release (one clock,
 * one start for all) and in an open loop its own (releaseOffsetMs after the first); spawnOffsetMs: its release to its spawn.
 */
export type BurstLaunchResult = LaunchResult & { burstIndex: number; releaseOffsetMs: number; spawnOffsetMs: number | null };

/** The largest gap between two releases of an open loop the helper takes (launcher.c), ms. */
export const MAX_RELEASE_INTERVAL_MS = 60_000;
const HELLO_TIMEOUT_MS = 5000;
const CLOSE_GRACE_MS = 3000;

/** harness/launch/build/launcher, found from this module whether it runs from dist/ or the sources. */
export function defaultHelperPath(): string {
  const rel = join('harness', 'launch', 'build', 'launcher');
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, rel);
    if (existsSync(candidate)) return candidate;
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'harness'))) return candidate;
    const up = dirname(dir);
    if (up === dir) return join(dirname(fileURLToPath(import.meta.url)), 'build', 'launcher');
    dir = up;
  }
}

interface Pending {
  req: LaunchRequest;
  resolve: (r: LaunchResult, raw: HelperResult) => void;
  reject: (e: Error) => void;
}

export class Launcher {
  private buffer = '';
  /** The launches written and not yet answered, in the order the helper answers them. */
  private pending: Pending[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  private exited: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  private readonly exitPromise: Promise<void>;
  private stderrText = '';
  private helloSeen: (line: string) => void = () => {};
  private unregister: () => Promise<void> = async () => {};
  private closing = false;
  private graceful = false;
  /** Helper-measured bookkeeping before the last request: previous result written to this request read (ms). */
  lastIdleMs: number | null = null;
  /** True when the last launch left processes in its group that the helper then killed. */
  lastStrayKilled = false;

  private constructor(
    private readonly child: ChildProcess,
    readonly helperPath: string,
  ) {
    this.exitPromise = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.exited = { code, signal };
        const ps = this.pending;
        this.pending = [];
        for (const p of ps)
          p.reject(new Error(`launch helper ${helperPath} exited (${signal ?? `code ${code}`}) during launch ${p.req.launchId}${this.stderrSuffix()}`));
        resolve();
      });
    });
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (text: string) => this.onData(text));
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (text: string) => {
      this.stderrText = (this.stderrText + text).slice(-2000);
    });
    child.stdin!.on('error', () => {}); // a dead helper is reported by 'exit'
  }

  /** Starts the helper. Throws a UserError if it has not been built. */
  static async start(opts: { helperPath?: string } = {}): Promise<Launcher> {
    const helperPath = opts.helperPath ?? defaultHelperPath();
    if (!existsSync(helperPath)) {
      throw new UserError(
        `launch helper ${helperPath} is missing`,
        {},
        "run 'npm run build'; it compiles the helper with the C compiler (install one with 'sudo apt-get install gcc')",
      );
    }
    const child = spawn(helperPath, [], { stdio: ['pipe', 'pipe', 'pipe'] });
    const launcher = new Launcher(child, helperPath);
    const spawned = new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (e) => reject(new UserError(`cannot run launch helper ${helperPath}: ${e.message}`, {}, "run 'npm run build'")));
    });
    await spawned;
    launcher.unregister = onCleanup(`launch helper (pid ${child.pid})`, () => launcher.shutdown(launcher.graceful ? null : 'SIGTERM'));
    await launcher.awaitHello();
    return launcher;
  }

  /** Runs one measured launch (launches are queued, one at a time). */
  launch(req: LaunchRequest): Promise<LaunchResult> {
    const run = this.queue.then(() => this.launchNow(req));
    this.queue = run.catch(() => {});
    return run;
  }

  /**
   * Runs N launches released together: the helper spawns them back to back after one clock read and
   * times each from it (closed loop: all N in flight). With `intervalMs`, launch i is released at the
   * first release + i × intervalMs instead, whether or not the earlier ones are done (open loop: arrivals
   * at a fixed rate), and timed from its own release. Results in request order, once all are complete.
   */
  burst(reqs: readonly LaunchRequest[], opts: { intervalMs?: number } = {}): Promise<BurstLaunchResult[]> {
    const run = this.queue.then(() => this.burstNow(reqs, opts.intervalMs ?? 0));
    this.queue = run.catch(() => {});
    return run;
  }

  /** Process id of the helper (for diagnostics). */
  get helperPid(): number | undefined {
    return this.child.pid;
  }

  /** Stops the helper; a launch in progress is killed with its whole process group. */
  async close(): Promise<void> {
    this.graceful = true;
    await this.unregister();
  }

  private launchNow(req: LaunchRequest): Promise<LaunchResult> {
    const problem = requestProblem(req);
    if (problem) return Promise.reject(new Error(`bad launch request ${req.launchId}: ${problem}`));
    if (this.exited || this.closing) return Promise.reject(new Error(`launch helper is not running (launch ${req.launchId})`));
    return new Promise<LaunchResult>((resolve, reject) => {
      this.pending = [{ req, resolve, reject }];
      this.child.stdin!.write(encodeRequest(req));
    });
  }

  private burstNow(reqs: readonly LaunchRequest[], intervalMs: number): Promise<BurstLaunchResult[]> {
    if (reqs.length < 1 || reqs.length > MAX_BURST) return Promise.reject(new Error(`a burst has 1 to ${MAX_BURST} launches, not ${reqs.length}`));
    const intervalUs = Math.round(intervalMs * 1000);
    if (!(intervalMs === 0 || (intervalUs >= 1 && intervalMs <= MAX_RELEASE_INTERVAL_MS)))
      return Promise.reject(new Error(`an open loop's release interval is 0.001 to ${MAX_RELEASE_INTERVAL_MS} ms, not ${intervalMs}`));
    const ids = new Set(reqs.map((r) => r.launchId));
    if (ids.size !== reqs.length) return Promise.reject(new Error('the launches of a burst need distinct launch ids'));
    for (const req of reqs) {
      const problem = requestProblem(req);
      if (problem) return Promise.reject(new Error(`bad launch request ${req.launchId}: ${problem}`));
    }
    if (this.exited || this.closing) return Promise.reject(new Error(`launch helper is not running (burst of ${reqs.length})`));
    const results = reqs.map(
      (req) =>
        new Promise<BurstLaunchResult>((resolve, reject) => {
          this.pending.push({
            req,
            resolve: (r, raw) =>
              resolve({ ...r, burstIndex: raw.burstIndex ?? -1, releaseOffsetMs: raw.releaseOffsetMs ?? 0, spawnOffsetMs: raw.spawnOffsetMs ?? null }),
            reject,
          });
        }),
    );
    const head = intervalUs > 0 ? `B${reqs.length}@${intervalUs}\n` : `B${reqs.length}\n`;
    this.child.stdin!.write(Buffer.concat([Buffer.from(head), ...reqs.map((r) => encodeRequest(r))]));
    return Promise.all(results);
  }

  private onData(text: string): void {
    this.buffer += text;
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + 1);
      this.onLine(line);
    }
  }

  private onLine(line: string): void {
    let msg: Record<string, unknown>;
    try {
      msg = JSON.parse(line) as Record<string, unknown>;
    } catch {
      this.fail(`launch helper wrote a line that is not JSON: ${line.slice(0, 200)}`);
      return;
    }
    if ('hello' in msg) {
      this.helloSeen(line);
      return;
    }
    if ('protocolError' in msg) {
      this.fail(`launch helper rejected a request: ${String(msg['protocolError'])}`);
      return;
    }
    const p = this.pending[0];
    const raw = msg as unknown as HelperResult;
    if (!p || raw.launchId !== p.req.launchId) {
      this.fail(`launch helper answered for launch ${String(raw.launchId)}, expected ${p?.req.launchId ?? 'none'}`);
      return;
    }
    this.pending.shift();
    if (raw.idleMs !== null || raw.burstIndex === undefined) this.lastIdleMs = raw.idleMs;
    this.lastStrayKilled = raw.strayKilled;
    p.resolve(launchOutcome(p.req, raw), raw);
  }

  private fail(message: string): void {
    const ps = this.pending;
    this.pending = [];
    for (const p of ps) p.reject(new Error(message));
    void this.shutdown('SIGTERM');
  }

  private awaitHello(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        void this.shutdown('SIGKILL');
        reject(new Error(`launch helper ${this.helperPath} did not greet within ${HELLO_TIMEOUT_MS} ms${this.stderrSuffix()}`));
      }, HELLO_TIMEOUT_MS);
      this.helloSeen = (line) => {
        clearTimeout(timer);
        const hello = JSON.parse(line) as { protocol?: number };
        if (hello.protocol !== PROTOCOL) {
          void this.shutdown('SIGTERM');
          reject(
            new UserError(`launch helper ${this.helperPath} speaks protocol ${hello.protocol}, expected ${PROTOCOL}`, {}, "run 'npm run build' to rebuild it"),
          );
        } else resolve();
      };
      void this.exitPromise.then(() => {
        clearTimeout(timer);
        reject(new Error(`launch helper ${this.helperPath} exited before greeting${this.stderrSuffix()}`));
      });
    });
  }

  /**
   * Ends the helper: closing its stdin makes it kill a running launch's process
   * group and exit; a signal (SIGTERM) does the same at once; SIGKILL is the last resort.
   */
  private async shutdown(signal: 'SIGTERM' | 'SIGKILL' | null = null): Promise<void> {
    if (this.exited) return;
    this.closing = true;
    this.child.stdin!.end();
    if (signal && this.child.pid !== undefined) this.child.kill(signal);
    const timer = setTimeout(() => {
      if (!this.exited) this.child.kill('SIGKILL');
    }, CLOSE_GRACE_MS);
    await this.exitPromise;
    clearTimeout(timer);
  }

  private stderrSuffix(): string {
    const t = this.stderrText.trim();
    return t ? `: ${t}` : '';
  }
}

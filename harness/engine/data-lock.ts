// One `pipeline run` per data folder at a time.
//
// The lock is a kernel flock(2) on `<data>/run.lock`, held by an open file
// description of the runner itself for its whole lifetime: the kernel drops it
// when the runner exits, however it exits (SIGKILL included), so there is no
// stale lock to take over and no takeover race. Node has no flock call, so the
// `flock` command (util-linux) takes it on our descriptor, passed as its fd 3,
// and exits: the lock belongs to the shared open file description, which only
// we keep open. The file's content (the holder's pid) is only for naming the
// holder in the refusal. After locking we check that the path still names the
// file we locked (a releasing runner unlinks it); otherwise we retry.
//
// `flock` runs in the background (an asynchronous child): `pipeline run`
// starts it and loads the stages meanwhile, and waits for the lock before it
// reads the data folder, so the child's start costs a no-op rerun nothing.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, constants, fstatSync, ftruncateSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../errors.js';
import { isAlive } from '../process/pid.js';
import { onCleanup } from '../process/cleanup.js';

/** Exit status `flock -n` uses when the lock is held elsewhere. */
const HELD = 75;
/** How long a refused runner waits for the holder to write its pid. */
const HOLDER_PID_WAIT_MS = 2000;

/** Resolves to the release once the lock is held; rejects with a UserError naming the holder when another run has it. */
export async function acquireDataLock(dataDir: string): Promise<() => Promise<void>> {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'run.lock');
  for (let attempt = 0; attempt < 50; attempt++) {
    const fd = openSync(file, constants.O_RDWR | constants.O_CREAT, 0o644);
    const r = await flockNonBlocking(fd);
    if (r.error) {
      closeSync(fd);
      throw new UserError(`cannot run 'flock' to lock the data folder: ${r.error.message}`, { file: dataDir }, 'install util-linux (it provides flock)');
    }
    if (r.status === HELD) {
      closeSync(fd);
      const pid = waitForHolderPid(file);
      throw new UserError(
        `another pipeline run (pid ${pid ?? 'unknown'}) is using this data folder`,
        { file: dataDir },
        pid ? `wait for it to finish, stop it with 'kill ${pid}', or use another --data folder` : 'wait for it to finish, or use another --data folder',
      );
    }
    if (r.status !== 0) {
      const again = flockAgain(fd);
      closeSync(fd);
      throw new Error(`flock on ${file} failed (${r.signal ? `killed by ${r.signal}` : `status ${r.status}`}); ${again}`);
    }
    if (!sameFile(fd, file)) {
      // The previous holder unlinked it between our open and our lock: the
      // lock we hold is on a file nobody else will open. Try the new one.
      closeSync(fd);
      continue;
    }
    const content = `${process.pid}\n`;
    writeSync(fd, content, 0);
    ftruncateSync(fd, Buffer.byteLength(content));
    return onCleanup(`data lock ${file}`, () => {
      // Unlink while still holding the lock, then drop it: a runner that
      // opened the old file sees it unlinked after locking and retries.
      try {
        if (sameFile(fd, file)) unlinkSync(file);
      } finally {
        closeSync(fd);
      }
    });
  }
  throw new UserError('could not take the data folder lock: it kept being replaced', { file }, 'retry; if it persists, another tool is rewriting this file');
}

/**
 * `flock --nonblock` on our descriptor `fd`, passed as the child's fd 3: its
 * exit status (HELD when another holds it) or the signal that ended it. No
 * pipe for its stderr: a pipe costs a stream and a socket on every command's
 * start (some 1.5 ms of a no-op rerun), and only an unexpected failure needs
 * the words (flockAgain).
 */
function flockNonBlocking(fd: number): Promise<{ status: number | null; signal: NodeJS.Signals | null; error?: Error }> {
  return new Promise((done) => {
    const child = spawn('flock', FLOCK_ARGS, { stdio: ['ignore', 'ignore', 'ignore', fd] });
    child.on('error', (error) => done({ status: null, signal: null, error }));
    child.on('exit', (status, signal) => done({ status, signal }));
  });
}

const FLOCK_ARGS = ['--nonblock', '--conflict-exit-code', String(HELD), '3'];

/** After a failure that is neither success nor HELD: what a second `flock`, with its stderr kept, says or does. */
function flockAgain(fd: number): string {
  const r = spawnSync('flock', FLOCK_ARGS, { stdio: ['ignore', 'ignore', 'pipe', fd], encoding: 'utf8' });
  const said = (r.stderr ?? '').trim();
  if (said) return `a second try says: ${said}`;
  if (r.status === 0) return 'a second try took the lock, which was dropped: retry the command';
  if (r.status === HELD) return 'a second try found the lock held by another run';
  return `a second try ended with ${r.signal ? `signal ${r.signal}` : `status ${r.status}`} and no message`;
}

function sameFile(fd: number, file: string): boolean {
  try {
    const a = fstatSync(fd);
    const b = statSync(file);
    return a.ino === b.ino && a.dev === b.dev;
  } catch {
    return false;
  }
}

/** The holder writes its pid right after locking: wait briefly for a live one. */
function waitForHolderPid(file: string): number | null {
  const until = Date.now() + HOLDER_PID_WAIT_MS;
  for (;;) {
    const pid = readPid(file);
    if (pid !== null && pid !== process.pid && isAlive(pid)) return pid;
    if (Date.now() > until) return null;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  }
}

function readPid(file: string): number | null {
  try {
    const n = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(n) && n > 0 ? n : null;
  } catch {
    return null;
  }
}

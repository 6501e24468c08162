// Effects: the kernel's overlay `redirect_dir` module parameter. Docker's
// overlay2 driver reads it once, when an engine starts: on (Y) it falls back to
// its naive diff (a walk of the lower and the merged trees), off (N) it tars
// the upperdir (native diff). The experiment turns it on only for the moment a
// naive engine starts, then restores the original value at once.
//
// Restoring never depends on this process staying alive: before changing the
// setting, the original value and the pid of the process that changed it are
// written to a record file under the data folder. The undo is registered with
// onCleanup (exit, error, SIGINT, SIGTERM); after a SIGKILL the next start
// (restoreLeftoverRedirectDir) finds the record of a dead process and writes
// the original value back.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { onCleanup } from './cleanup.js';
import { isAlive } from './pid.js';

export const REDIRECT_DIR_PARAMETER = '/sys/module/overlay/parameters/redirect_dir';

export interface RedirectDirRecord {
  original: string;
  pid: number;
  parameter: string;
}

export function redirectDirRecordFile(dataDir: string): string {
  return join(dataDir, 'kernel', 'overlay-redirect-dir.json');
}

export function readRedirectDir(parameter = REDIRECT_DIR_PARAMETER): string {
  return readFileSync(parameter, 'utf8').trim();
}

function writeParameter(parameter: string, value: string): void {
  writeFileSync(parameter, value + '\n');
}

/**
 * Restores the value recorded by a process that is gone (killed before its
 * undo ran). Returns what it did, or null when there was nothing to restore.
 */
export function restoreLeftoverRedirectDir(dataDir: string): string | null {
  const file = redirectDirRecordFile(dataDir);
  if (!existsSync(file)) return null;
  const record = JSON.parse(readFileSync(file, 'utf8')) as RedirectDirRecord;
  if (record.pid !== process.pid && isAlive(record.pid)) return null; // its owner is still running and will restore it
  const now = readRedirectDir(record.parameter);
  if (now !== record.original) writeParameter(record.parameter, record.original);
  rmSync(file, { force: true });
  return `overlay redirect_dir was left at ${now} by pid ${record.pid}; restored to ${record.original}`;
}

/**
 * Sets redirect_dir to `value` and returns the undo (also registered with
 * onCleanup). Keep the window short: every overlay mount and every engine
 * started on the machine meanwhile sees the setting.
 */
export function setRedirectDir(dataDir: string, value: 'Y' | 'N', parameter = REDIRECT_DIR_PARAMETER): () => Promise<void> {
  restoreLeftoverRedirectDir(dataDir);
  const original = readRedirectDir(parameter);
  const file = redirectDirRecordFile(dataDir);
  mkdirSync(dirname(file), { recursive: true });
  const record: RedirectDirRecord = { original, pid: process.pid, parameter };
  writeFileSync(file, JSON.stringify(record) + '\n');
  const restore = (): void => {
    if (readRedirectDir(parameter) !== original) writeParameter(parameter, original);
    rmSync(file, { force: true });
  };
  const undo = onCleanup(`overlay redirect_dir back to ${original}`, restore);
  try {
    writeParameter(parameter, value);
    const now = readRedirectDir(parameter);
    if (now !== value) throw new Error(`${parameter} reads ${now} after writing ${value}`);
  } catch (e) {
    void undo();
    throw e;
  }
  return undo;
}

/** Machine-wide: one redirect_dir window at a time, so no run records another run's Y as the original. */
export const REDIRECT_DIR_LOCK = join('/tmp', 'benchgraph-overlay-redirect-dir.lock');

/**
 * Waits (up to timeoutMs) for the machine-wide window lock, taking over a lock
 * whose holder is gone. Returns its release (also registered with onCleanup).
 */
export async function lockRedirectDirWindow(timeoutMs = 180_000, lockFile = REDIRECT_DIR_LOCK): Promise<() => Promise<void>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      writeFileSync(lockFile, String(process.pid) + '\n', { flag: 'wx' });
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      let holder = 0;
      try {
        holder = Number(readFileSync(lockFile, 'utf8').trim());
      } catch {
        continue; // removed meanwhile
      }
      if (!isAlive(holder)) {
        rmSync(lockFile, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`${lockFile} is held by pid ${holder} for more than ${timeoutMs / 1000} s`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return onCleanup(`overlay redirect_dir window lock ${lockFile}`, () => {
    try {
      if (Number(readFileSync(lockFile, 'utf8').trim()) === process.pid) rmSync(lockFile, { force: true });
    } catch {
      /* already gone */
    }
  });
}

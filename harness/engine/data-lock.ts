// One `pipeline run` per data folder at a time. The lock file holds the
// holder's pid; a lock whose process is gone is taken over.
import { mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../errors.js';
import { isAlive } from '../process/pid.js';
import { onCleanup } from '../process/cleanup.js';

export function acquireDataLock(dataDir: string): () => Promise<void> {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'run.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return onCleanup(`data lock ${file}`, () => {
        if (readPid(file) === process.pid) rmSync(file, { force: true });
      });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = readPid(file);
      if (pid !== null && pid !== process.pid && isAlive(pid)) {
        throw new UserError(
          `another pipeline run (pid ${pid}) is using this data folder`,
          { file: dataDir },
          `wait for it to finish, stop it with 'kill ${pid}', or use another --data folder`,
        );
      }
      // Stale: its process is gone. Rename it away first; of two runners that
      // both saw it stale, only one rename succeeds, then both retry O_EXCL.
      try {
        renameSync(file, `${file}.stale-${process.pid}`);
        rmSync(`${file}.stale-${process.pid}`, { force: true });
      } catch {
        // another runner took it over first
      }
    }
  }
  throw new UserError('could not take the data folder lock', { file }, 'remove the file if no pipeline run is active');
}

function readPid(file: string): number | null {
  try {
    const n = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(n) && n > 0 ? n : null;
  } catch {
    return null;
  }
}

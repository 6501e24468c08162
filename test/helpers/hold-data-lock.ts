// A real process that takes the data folder lock through the same code as
// `pipeline run`, says so on stdout, holds it for a while, then releases it.
// Usage: node hold-data-lock.js DATA_DIR HOLD_MS|stdin
// Prints `held PID` (exit 0 after HOLD_MS, or when stdin closes) or
// `refused MESSAGE` (exit 2).
import { acquireDataLock } from '../../harness/engine/data-lock.js';
import { UserError } from '../../harness/errors.js';

const [dataDir, holdMs] = process.argv.slice(2);
try {
  const release = await acquireDataLock(dataDir!);
  process.stdout.write(`held ${process.pid}\n`);
  const done = (): void => void release().then(() => process.exit(0));
  if (holdMs === 'stdin') {
    process.stdin.resume();
    process.stdin.on('end', done);
  } else setTimeout(done, Number(holdMs));
} catch (e) {
  if (!(e instanceof UserError)) throw e;
  process.stdout.write(`refused ${e.message}\n`);
  process.exit(2);
}

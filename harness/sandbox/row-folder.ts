// The work folder of one effect row: every sandbox state, image, loop-device
// file, mount point, cgroup and netns list the row's scripts make lives under
// it, so gvisor-sweep.sh can undo all of it. The sweep is registered with the
// cleanup stack the moment the folder exists, so it runs on normal exit, on
// error and on SIGINT/SIGTERM.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { onCleanup } from '../process/cleanup.js';
import { projectRoot } from '../process/project-root.js';

const run = promisify(execFile);

/** harness/sandbox (the scripts), from the project root. */
export function sandboxScriptsDir(): string {
  return join(projectRoot(), 'harness', 'sandbox');
}

export async function sweepRowFolder(dir: string, remove: boolean): Promise<void> {
  await run(join(sandboxScriptsDir(), 'gvisor-sweep.sh'), remove ? [dir, '--remove'] : [dir], { timeout: 120_000 });
}

export interface RowFolder {
  dir: string;
  /** Sweeps and removes the folder now (and forgets the registered undo). */
  close(): Promise<void>;
}

/** A fresh folder /tmp/bg-fx-<rowId>-XXXXXX whose sweep is registered at once. */
export function openRowFolder(rowId: string): RowFolder {
  const dir = mkdtempSync(join(tmpdir(), `bg-fx-${rowId.slice(0, 20)}-`));
  const close = onCleanup(`sandbox row folder ${dir}`, () => sweepRowFolder(dir, true));
  return { dir, close };
}

// The kernel's overlay redirect_dir is one setting for the whole machine, and
// it applies to every overlay mount made while it is on, not only to the
// engine start the harness's window lock covers: a test that sets it (or a
// commit-diff run's naive-engine window) while another test's native engine
// mounts a container gives that container a redirect-dir overlay, and its
// committed layer then differs from the naive one (a `.wh..wh..opq` seen only
// on native, in a full-suite run). The test files that set it or run commit
// engines therefore take turns: each holds this lock (a second file, so the
// harness's own window lock inside the runs is never held by a test) from its
// first test to its last.
import test from 'ava';
import { lockRedirectDirWindow } from '../../harness/process/overlay-redirect-dir.js';

export const OVERLAY_USERS_LOCK = '/tmp/benchgraph-test-overlay-users.lock';

/** Registers before/after hooks in the calling test file that hold the machine-wide overlay-users lock (waits up to 20 min for another file). */
export function takeTurnsWithOverlayUsers(): void {
  let release: (() => Promise<void>) | null = null;
  test.before(async () => {
    if (process.getuid?.() === 0) release = await lockRedirectDirWindow(20 * 60_000, OVERLAY_USERS_LOCK);
  });
  test.after.always(async () => {
    await release?.();
    release = null;
  });
}

// How a process of ours starts this checkout's `pipeline` command.
//
// Node 20 can hang for good at exit: an optimizing compile on a V8 worker thread
// asks the main thread for a garbage collection while the main thread waits in
// NodePlatform::DrainTasks for that worker (nodejs/node#54918, open). Seen here in
// `pipeline history` runs on a loaded 2-core machine, about 2 in 100, each stuck
// at 0% CPU until killed: a CI run of the suite never finished. Compiling on the
// main thread leaves no worker to wait for, so every `pipeline` runs with
// --no-concurrent-recompilation: the shebang of bin/pipeline.js gives it to a
// user's `./bin/pipeline.js`, and cliArgv to the processes we start.
import { join } from 'node:path';
import { projectRoot } from './project-root.js';

export const CLI_NODE_FLAGS: readonly string[] = ['--no-concurrent-recompilation'];

/** The shebang line bin/pipeline.js starts with. */
export const CLI_SHEBANG = `#!/usr/bin/env -S node ${CLI_NODE_FLAGS.join(' ')}`;

/** The argv of `pipeline ARGS` run by this Node with the flags of the shebang. */
export function cliArgv(args: readonly string[] = []): string[] {
  return [process.execPath, ...CLI_NODE_FLAGS, join(projectRoot(), 'bin', 'pipeline.js'), ...args];
}

// The one adapter around zx: orchestration commands that are never timed
// (image builds, pushes, unpacking) run through it, with their arguments
// quoted by zx, their output collected, and a failure turned into one error
// that names the command and the end of its stderr. Launches that are timed
// never come here: the C launch helper runs those.
export interface UntimedOptions {
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/** Runs `command args…` to completion; resolves with its stdout. */
export async function runUntimed(command: string, args: readonly string[], options: UntimedOptions = {}): Promise<string> {
  // Loaded on first use: a command that builds nothing never loads zx.
  const { $ } = await import('zx');
  const shell = $({ quiet: true, verbose: false, nothrow: true, signal: options.signal, env: options.env ?? process.env, cwd: options.cwd });
  const out = await shell`${command} ${[...args]}`;
  if (options.signal?.aborted) throw options.signal.reason instanceof Error ? options.signal.reason : new Error('aborted');
  if (out.exitCode !== 0) {
    const tail = out.stderr.trim().split('\n').slice(-5).join(' | ');
    throw new Error(`${command} ${args.join(' ')} failed (${out.exitCode === null ? `signal ${out.signal}` : `exit ${out.exitCode}`}): ${tail || 'no stderr'}`);
  }
  return out.stdout;
}

// Runs an untimed hook command (before_cold, after_pair, ...). Hooks are not
// measured, so Node's own spawn is fine here. Output is kept for the failure
// reason; a hook that exceeds its timeout is killed with its process group.
import { spawn } from 'node:child_process';
import { onCleanup } from '../process/cleanup.js';

export interface HookResult {
  ok: boolean;
  reason: string | null;
  output: string;
}

export function runHook(argv: readonly string[], env: Record<string, string>, cwd: string, timeoutMs: number): Promise<HookResult> {
  return new Promise((resolve) => {
    let output = '';
    const keep = (b: Buffer): void => {
      output = (output + b.toString('utf8')).slice(-4000);
    };
    const child = spawn(argv[0]!, argv.slice(1), { env, cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    // On a signal, a running hook is stopped with its whole process group.
    const forget = onCleanup(`hook ${argv[0]}`, () => {
      try {
        if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    });
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      void forget();
      resolve({ ok: false, reason: `hook ${argv[0]} could not start: ${e.message}`, output });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      void forget();
      if (code === 0) resolve({ ok: true, reason: null, output });
      else {
        const last = output.trim().split('\n').at(-1) ?? '';
        resolve({
          ok: false,
          reason: `hook ${argv.join(' ').slice(0, 80)} ${signal ? `killed by ${signal}` : `exited ${code}`}${last ? `: ${last.slice(0, 200)}` : ''}`,
          output,
        });
      }
    });
  });
}

// Frozen smoke runs for the store tests: each a project folder with a real
// pipeline.lock and .data/ store, made by `pipeline run` with quick settings.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { QUICK, runCli, smokeProject, type CliResult } from './cli.js';

export async function frozenSmokeRun(): Promise<string> {
  const dir = smokeProject();
  const r = await runCli(['run', ...QUICK], dir);
  if (r.code !== 0) throw new Error(`smoke run failed: ${r.stderr}`);
  return dir;
}

/** The CLI with the quick settings a frozen smoke run was made with (status, pull, re-analysis see the same keys). */
export function storeCli(args: readonly string[], cwd: string): Promise<CliResult> {
  return runCli(args, cwd);
}

/** Every file below `dir` -> the sha256 of its bytes, for byte-for-byte comparison. */
export function folderBytes(dir: string, edit: (name: string, bytes: Buffer) => Buffer = (_n, b) => b): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const n of readdirSync(d).sort()) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else
        out[relative(dir, p)] = createHash('sha256')
          .update(edit(relative(dir, p), readFileSync(p)))
          .digest('hex');
    }
  };
  walk(dir);
  return out;
}

// The archived runs (runs/<id>/run.json) of a report folder whose
// statistics.csv is the same file as the folder's own, newest first: the
// run a published folder holds, when it holds no run.json of its own.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sha256Hex } from '../digest/sha256.js';

export function* archivedRunsOf(folder: string): Generator<{ id: string; runJson: string }> {
  const stats = join(folder, 'statistics.csv');
  const runs = join(folder, 'runs');
  if (!existsSync(stats) || !existsSync(runs)) return;
  const want = sha256Hex(readFileSync(stats));
  for (const id of readdirSync(runs).sort().reverse()) {
    const runJson = join(runs, id, 'run.json');
    const theirs = join(runs, id, 'statistics.csv');
    if (existsSync(runJson) && existsSync(theirs) && sha256Hex(readFileSync(theirs)) === want) yield { id, runJson };
  }
}

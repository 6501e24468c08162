// Where the project's own files are, whether running from dist/ or sources.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | null = null;

/** The folder holding package.json, stages/ and schemas/. */
export function projectRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'schemas'))) break;
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the benchgraph project root above ' + fileURLToPath(import.meta.url));
    dir = up;
  }
  root = dir;
  return dir;
}

export const schemasDir = (): string => join(projectRoot(), 'schemas');
export const stagesSourceDir = (): string => join(projectRoot(), 'stages');
/** Compiled stage modules. */
export const stagesDistDir = (): string => join(projectRoot(), 'dist', 'stages');
export const harnessDir = (): string => join(projectRoot(), 'harness');

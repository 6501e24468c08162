// The code a stage runs: its module in stages/ and every project module it
// imports, transitively (relative imports only; npm packages are pinned by
// package-lock.json). The key holds one sha256 per source file, so `status`
// can say which file changed.
import { readFileSync, existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { sha256Hex } from '../digest/sha256.js';
import { projectRoot } from '../process/project-root.js';

const IMPORT_RE = /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)|^\s*import\s+['"](\.{1,2}\/[^'"]+)['"]/gm;

const cache = new Map<string, Record<string, string>>();

/**
 * Map of project-relative source path -> sha256 for a stage kind's code, plus
 * every file under `extraCode` folders (scripts and C sources the stage runs
 * by path rather than importing).
 */
export function stageCodeDigests(kind: string, extraCode: readonly string[] = []): Record<string, string> {
  const cacheKey = [kind, ...extraCode].join('\0');
  const hit = cache.get(cacheKey);
  if (hit) return hit;
  const root = projectRoot();
  const out: Record<string, string> = {};
  const visit = (abs: string): void => {
    const rel = relative(root, abs);
    if (rel in out) return;
    const text = readFileSync(abs, 'utf8');
    out[rel] = sha256Hex(text);
    for (const m of text.matchAll(IMPORT_RE)) {
      const spec = m[1] ?? m[2] ?? m[3];
      if (!spec) continue;
      const target = resolveSource(dirname(abs), spec);
      if (target) visit(target);
    }
  };
  visit(join(root, 'stages', `${kind}.ts`));
  for (const rel of extraCode) for (const f of listFiles(join(root, rel))) visit(f);
  const sorted: Record<string, string> = {};
  for (const k of Object.keys(out).sort()) sorted[k] = out[k]!;
  cache.set(cacheKey, sorted);
  return sorted;
}

/** `./x.js` -> the `./x.ts` source; also .json, .sh, .c files imported or read by path. */
function resolveSource(fromDir: string, spec: string): string | null {
  const abs = resolve(fromDir, spec);
  for (const cand of [abs.replace(/\.js$/, '.ts'), abs, abs + '.ts']) {
    if (existsSync(cand) && !cand.endsWith('/')) return cand;
  }
  return null;
}

/** Forgets computed digests (tests edit sources between runs). */
export function clearCodeDigestCache(): void {
  cache.clear();
}

function listFiles(abs: string): string[] {
  if (!existsSync(abs)) return [];
  if (!statSync(abs).isDirectory()) return [abs];
  return readdirSync(abs)
    .sort()
    .flatMap((name) => listFiles(join(abs, name)))
    .filter((f) => !f.includes('/build/'));
}

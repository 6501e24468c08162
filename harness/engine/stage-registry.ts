// Stage kinds are the modules in stages/: the file name is the kind.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectRoot, stagesDistDir, stagesSourceDir } from '../process/project-root.js';
import { stageCodeDigests } from './code-digest.js';
import { UserError } from '../errors.js';
import type { StageDefinition } from '../contract/stage.js';

export function knownStageKinds(): Set<string> {
  return new Set(
    readdirSync(stagesSourceDir())
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
      .map((f) => f.slice(0, -3)),
  );
}

const loaded = new Map<string, StageDefinition>();

export async function loadStage(kind: string): Promise<StageDefinition> {
  const hit = loaded.get(kind);
  if (hit) return hit;
  const file = join(stagesDistDir(), `${kind}.js`);
  if (!existsSync(file)) throw new Error(`stage module ${file} is missing: run 'npm run build'`);
  const mod = (await import(pathToFileURL(file).href)) as { default?: StageDefinition };
  const def = mod.default;
  if (!def || typeof def.run !== 'function' || def.kind !== kind || !Array.isArray(def.reads)) {
    throw new Error(`stages/${kind}.ts must default-export a StageDefinition with kind '${kind}', reads and run()`);
  }
  assertBuilt(def);
  loaded.set(kind, def);
  return def;
}

/**
 * Keys hash the TypeScript sources while the compiled JavaScript runs: a
 * source newer than its build would run old code under a new key.
 */
function assertBuilt(def: StageDefinition): void {
  const root = projectRoot();
  for (const rel of Object.keys(stageCodeDigests(def.kind, def.extraCode ?? []))) {
    if (!rel.endsWith('.ts')) continue;
    const built = join(root, 'dist', rel.replace(/\.ts$/, '.js'));
    if (!existsSync(built) || statSync(built).mtimeMs + 1 < statSync(join(root, rel)).mtimeMs) {
      throw new UserError(`the build is older than ${rel}`, { file: rel }, "run 'npm run build' so the code that runs is the code that is hashed");
    }
  }
}

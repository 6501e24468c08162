// Stage kinds are the modules in stages/: the file name is the kind.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { stagesDistDir, stagesSourceDir } from './project-root.js';
import type { StageDefinition } from './stage.js';

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
  loaded.set(kind, def);
  return def;
}

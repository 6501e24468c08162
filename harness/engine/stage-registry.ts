// Where stage definitions and the digests of their code come from. The engine
// takes a registry as a parameter: the project's registry loads the compiled
// modules of stages/ (the file name is the kind); engine tests pass toy stages.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectRoot, stagesDistDir, stagesSourceDir } from '../process/project-root.js';
import { CodeDigester } from './code-digest.js';
import { UserError } from '../errors.js';
import type { StageDefinition } from '../contract/stage.js';

export interface StageRegistry {
  load(kind: string): Promise<StageDefinition>;
  /** Project-relative file -> digest of the code a stage runs (part of its key). */
  code(def: StageDefinition): Record<string, string>;
  /** Called once a command is done with the registry (persists caches). */
  close(): void;
}

export function knownStageKinds(): Set<string> {
  return new Set(
    readdirSync(stagesSourceDir())
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
      .map((f) => f.slice(0, -3)),
  );
}

const loaded = new Map<string, StageDefinition>();

/** The project's stages; code digests cached under `<dataDir>/cache/` (none when dataDir is null). */
export function projectStageRegistry(dataDir: string | null): StageRegistry {
  const digester = new CodeDigester(dataDir ? join(dataDir, 'cache', 'code-digests.json') : null);
  /** Sources this registry found not newer than their build: a module several stages import is checked once per command. */
  const builtChecked = new Set<string>();
  return {
    load: loadStage,
    code: (def) => {
      const code = digester.stageDigests(def.kind, def.extraCode ?? []);
      assertBuilt(code, builtChecked, (abs) => digester.statedMtimeMs(abs));
      return code;
    },
    close: () => digester.save(),
  };
}

async function loadStage(kind: string): Promise<StageDefinition> {
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

/**
 * Keys hash the compiled JavaScript that runs; a source newer than its build
 * would run old code while the user believes the edit is in effect.
 */
function assertBuilt(code: Record<string, string>, builtChecked: Set<string>, statedMtimeMs: (abs: string) => number | undefined): void {
  const root = projectRoot();
  for (const rel of Object.keys(code)) {
    if (!rel.endsWith('.ts') || builtChecked.has(rel)) continue;
    // code keys are normalised relative paths: plain concatenation, not path.join (a normalisation per file, 1 ms of a no-op)
    const source = statSync(`${root}/${rel}`, { throwIfNoEntry: false });
    const built = `${root}/dist/${rel.slice(0, -'.ts'.length)}.js`;
    // the digester has just stat'ed the built module it digested
    if (source && (statedMtimeMs(built) ?? statSync(built).mtimeMs) + 1 < source.mtimeMs) {
      throw new UserError(`the build is older than ${rel}`, { file: rel }, "run 'npm run build' so the code that runs is the code you edited");
    }
    builtChecked.add(rel);
  }
}

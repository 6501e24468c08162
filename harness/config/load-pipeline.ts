// Loads a pipeline file in three steps: YAML with positions, JSON Schema with
// defaults, then cross-key rules. Returns a PipelineConfig or throws a
// UserError naming file, line, column and key.
import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { UserError } from '../errors.js';
import { parseYamlSource } from './yaml-source.js';
import { resolveExtends } from './pipeline-extends.js';
import { applyOverride, parseOverride } from './set-override.js';
import { validatePipeline, validateStageParams } from './schema-validator.js';
import { checkCrossRules } from './cross-rules.js';
import { typedSections } from './typed-sections.js';
import type { PipelineConfig } from './pipeline-config.js';

export interface LoadOptions {
  /** `--set KEY=VALUE` texts, applied in order. */
  sets?: readonly string[];
  /** Stage kinds available (file names in stages/). */
  knownKinds: ReadonlySet<string>;
  /** When given, every file-existence question the rules asked is recorded here (path -> answer). */
  existsAnswers?: Map<string, boolean>;
}

export function loadPipeline(file: string, options: LoadOptions): PipelineConfig {
  return loadPipelineText(file, readPipelineFile(file), options);
}

/** The pipeline file's text, or a UserError naming it. */
export function readPipelineFile(file: string): string {
  const abs = resolve(file);
  try {
    return readFileSync(abs, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UserError(
      code === 'ENOENT' ? 'no such pipeline file' : `cannot read pipeline file (${code})`,
      { file: relative(process.cwd(), abs) || abs },
      'pass the file with -f FILE or run from the folder holding pipeline.yaml',
    );
  }
}

/** Steps 1 to 3 on the text of the pipeline file `file`. */
export function loadPipelineText(file: string, text: string, options: LoadOptions): PipelineConfig {
  const abs = resolve(file);
  const shown = relative(process.cwd(), abs) || abs;
  const src = parseYamlSource(shown, text);
  if (src.value === null || typeof src.value !== 'object' || Array.isArray(src.value)) {
    throw new UserError('the pipeline file must be a mapping of sections', { file: shown, line: 1, col: 1 }, 'start with experiment: and stages:');
  }
  let value = resolveExtends(src, abs);
  for (const text of options.sets ?? []) {
    const o = parseOverride(text);
    value = applyOverride(value, o) as Record<string, unknown>;
  }
  const setSrc = { ...src, value };
  try {
    validatePipeline(setSrc, value);
  } catch (e) {
    throw blameSet(e, options.sets);
  }
  const stages = value['stages'] as { id: string; uses: string; needs: string[]; with: Record<string, unknown> }[];
  const answers = options.existsAnswers;
  const exists = (path: string): boolean => {
    const yes = existsSync(path);
    answers?.set(path, yes);
    return yes;
  };
  checkCrossRules(setSrc, value, options.knownKinds, exists);
  stages.forEach((s, i) => validateStageParams(setSrc, i, s.uses, s.with));
  let typed;
  try {
    typed = typedSections(setSrc, value);
  } catch (e) {
    throw blameSet(e, options.sets);
  }
  return { ...(value as unknown as Omit<PipelineConfig, 'file' | 'rules' | 'reportOptions'>), file: abs, ...typed };
}

/** An error on a key that a --set changed names the flag too. */
function blameSet(e: unknown, sets: readonly string[] | undefined): unknown {
  if (!(e instanceof UserError) || !sets?.length || !e.place.key) return e;
  const hit = sets.find((s) => {
    const k = s.slice(0, s.indexOf('='));
    return e.place.key === k || e.place.key!.startsWith(k + '.') || k.startsWith(e.place.key + '.');
  });
  if (!hit) return e;
  return new UserError(`${e.message} [from --set ${hit}]`, e.place, e.hint);
}

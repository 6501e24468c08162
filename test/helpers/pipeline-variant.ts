// Copies a pipelines/ file into a test folder as its pipeline.yaml, with every
// file its `extends:` chain names beside it (a mini variant states only what
// differs from its base), so a test runs the variant as the loader reads it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from './cli.js';

const EXTENDS = /^extends\s*:\s*(\S+)\s*$/m;

/** Writes pipelines/`name` (edited by `edit`) to `dir`/pipeline.yaml and its bases beside it; returns the unedited text. */
export function writePipelineVariant(dir: string, name: string, edit: (yaml: string) => string = (y) => y): string {
  const text = readFileSync(join(projectRoot, 'pipelines', name), 'utf8');
  writeFileSync(join(dir, 'pipeline.yaml'), edit(text));
  for (let base = text.match(EXTENDS)?.[1]; base;) {
    const baseText = readFileSync(join(projectRoot, 'pipelines', base), 'utf8');
    writeFileSync(join(dir, base), baseText);
    base = baseText.match(EXTENDS)?.[1];
  }
  return text;
}

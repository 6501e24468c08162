// Finds an upstream output file by name among a stage's inputs (stage ids in
// sorted order, so the choice never depends on object key order).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { StageInput } from './stage.js';

export interface FoundInput {
  input: StageInput;
  file: string;
}

export function findInputFile(inputs: Record<string, StageInput>, name: string): FoundInput | null {
  for (const id of Object.keys(inputs).sort()) {
    const input = inputs[id]!;
    const file = join(input.outputDir, name);
    if (existsSync(file)) return { input, file };
  }
  return null;
}

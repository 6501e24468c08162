// Image fields for templates, gathered from the frozen inputs of a sampling
// stage: pins.json (pin) merged with images.json (prepare), by image id.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StageInput } from '../contract/stage.js';

export function sessionImages(inputs: Record<string, StageInput>): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  const merge = (file: string, dir: string): void => {
    const p = join(dir, file);
    if (!existsSync(p)) return;
    const data = JSON.parse(readFileSync(p, 'utf8')) as { images?: Record<string, Record<string, unknown>> };
    for (const [id, fields] of Object.entries(data.images ?? {})) {
      out[id] = { ...(out[id] ?? {}), ...fields, dir };
    }
  };
  const dirs = Object.keys(inputs)
    .sort()
    .map((id) => inputs[id]!.outputDir);
  for (const d of dirs) merge('pins.json', d);
  for (const d of dirs) merge('images.json', d);
  return out;
}

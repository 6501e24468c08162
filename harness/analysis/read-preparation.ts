// Reads preparation.json (one observation per preparation operation) if present.
import { readFile } from 'node:fs/promises';
import { UserError } from '../errors.js';
import type { PreparationCost } from './analysis-result.js';

export async function readPreparation(file: string): Promise<PreparationCost[]> {
  const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
  if (!Array.isArray(parsed)) throw new UserError('expected an array of {service, artifact, operation, seconds}', { file });
  return parsed.map((p: Record<string, unknown>) => ({
    service: String(p['service']),
    artifact: String(p['artifact']),
    operation: String(p['operation']),
    seconds: Number(p['seconds']),
  }));
}

// The looks of a run that sampled until decided, from the sample stage's
// adaptive.json (experiment/adaptive-plan.ts adaptiveRecord, or the looks
// import-samples writes): every experiment's analysis reads it here to know
// which rule judges its comparisons (judge.ts). Null without the file: the
// run had a fixed number of sessions.
import { readFileSync } from 'node:fs';
import type { Looks } from './judge.js';

export function readLooks(found: { file: string } | null): Looks | null {
  if (!found) return null;
  const r = JSON.parse(readFileSync(found.file, 'utf8')) as Partial<Looks>;
  if (typeof r.minSessions !== 'number' || typeof r.maxSessions !== 'number')
    throw new Error(`${found.file}: adaptive.json without minSessions and maxSessions`);
  return { minSessions: r.minSessions, maxSessions: r.maxSessions, ...(typeof r.spendingRho === 'number' ? { spendingRho: r.spendingRho } : {}) };
}

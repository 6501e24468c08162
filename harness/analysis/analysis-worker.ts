// Worker-thread entry of analyze-in-workers.ts: computes one share of the
// analysis's bootstraps (analysis-parts.ts) from the compact values
// (compact-values.ts) and posts it back.
import { parentPort, workerData } from 'node:worker_threads';
import { partsShare } from './analysis-parts.js';
import type { AnalysisRules } from '../config/analysis-rules.js';
import type { ConfirmationInput } from './analysis-result.js';
import { expandValues, type CompactData } from './compact-values.js';

const job = workerData as { compact: CompactData; rules: AnalysisRules; confirmation: ConfirmationInput | null; part: number; parts: number };
parentPort!.postMessage(partsShare(expandValues(job.compact), job.rules, job.confirmation, job.part, job.parts));

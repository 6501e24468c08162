// noise.json, the noise flag calibrated on the host canary that the analyze
// stages of commit-diff and sandbox-effects write beside their analysis
// (the default experiment keeps it in analysis.json) and their report stages
// read. Effects at the edge of calibrated-noise.ts: the sessions' records in,
// the file out; the report side reads it back.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findInputFile, type SessionRecord } from '../contract/exchange-files.js';
import type { StageInput } from '../contract/stage.js';
import type { SampleRow } from '../db/sample-row.js';
import type { BootstrapOptions } from '../stats/two-level-bootstrap.js';
import type { AnalysisResult } from './analysis-result.js';
import { calibratedNoise } from './calibrated-noise.js';

export const NOISE_FILE = 'noise.json';

/** Writes noise.json into `outputDir` from the sample rows and the inputs' sessions.json; nothing without session records that carry a noise account. */
export function writeNoiseFile(inputs: Record<string, StageInput>, outputDir: string, rows: readonly SampleRow[], bootstrap: BootstrapOptions): void {
  const sessions = findInputFile(inputs, 'sessions.json');
  const records = sessions ? (JSON.parse(readFileSync(sessions.file, 'utf8')) as SessionRecord[]) : null;
  const { noise } = calibratedNoise(rows, records, bootstrap);
  if (noise) writeFileSync(join(outputDir, NOISE_FILE), JSON.stringify(noise, null, 2) + '\n');
}

/** The analyze stage's noise.json among the inputs; undefined without one. */
export function readNoiseFile(inputs: Record<string, StageInput>): AnalysisResult['noise'] {
  const found = findInputFile(inputs, NOISE_FILE);
  return found ? (JSON.parse(readFileSync(found.file, 'utf8')) as AnalysisResult['noise']) : undefined;
}

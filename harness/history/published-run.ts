// What `pipeline run` files when it publishes a launch report: the report's
// CSVs, each stage's own key inputs (code, config slice, parameters, files;
// not the digests of the stages it needs, which change with every new sample)
// and every session's host and fingerprint from the sampling observations;
// from the analyze stage's analysis.json, each session's noise flag as the
// report words it (calibrated on the canary) and the run's host canary.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { SessionRecord } from '../contract/exchange-files.js';
import { alreadyArchived, archiveRun, type ArchiveOutcome } from './archive-run.js';
import type { CanaryResult } from '../analysis/canary-statistics.js';
import { runCanaryOf } from '../compare/run-canary.js';
import type { SessionNoiseResult } from '../analysis/session-noise.js';
import type { ArchivedSession, ArchivedStage } from './run-record.js';

/** The name of the archive folder inside a published report folder. */
export const RUNS_DIR = 'runs';

export interface FrozenStage {
  id: string;
  uses: string;
  key: string;
  outputDigest: string;
  keyInputs: { code: Record<string, string>; config: Record<string, unknown>; params: Record<string, unknown>; files?: Record<string, string> };
  observationsDir: string;
}

/** A published folder is a launch report (and gets archived) when it has statistics.csv and differences.csv. */
export function isLaunchReport(folder: string): boolean {
  return existsSync(join(folder, 'statistics.csv')) && existsSync(join(folder, 'differences.csv'));
}

/** What run.json keeps of the analyze stage's analysis.json: the calibrated noise flag and the host canary. */
interface AnalysisParts {
  noise: SessionNoiseResult | null;
  canary: CanaryResult | null;
}

/**
 * The analyze stage's noise and canary, read from its outputs (the store keeps a stage's observations and
 * outputs side by side: <stage>/observations, <stage>/outputs); null without an analyze stage or analysis.json.
 */
export function analysisPartsOf(stages: readonly FrozenStage[]): AnalysisParts | null {
  const analyze = stages.find((s) => /(^|-)analyze$/.test(s.uses));
  const file = analyze ? join(dirname(analyze.observationsDir), 'outputs', 'analysis.json') : null;
  if (!file || !existsSync(file)) return null;
  const a = JSON.parse(readFileSync(file, 'utf8')) as { noise?: SessionNoiseResult; canary?: CanaryResult | null };
  return { noise: a.noise ?? null, canary: a.canary ?? null };
}

export { runCanaryOf } from '../compare/run-canary.js';

/** The calibrated flag of a session (analysis/session-noise.ts) as run.json's `noisy` and `reasons`; null when the analysis did not judge it. */
export function calibratedFlag(noise: SessionNoiseResult | null, session: number): { noisy: boolean; reasons: string[] } | null {
  const v = noise?.sessions.find((s) => s.session === session);
  if (!v || v.verdict === 'not judged') return null;
  return {
    noisy: v.verdict === 'noisy',
    reasons: [...v.slower.map((p) => `canary ${p.piece} ×${p.ratio.toFixed(2)} the other sessions`), ...v.account],
  };
}

export function sessionsOf(stages: readonly FrozenStage[], noise: SessionNoiseResult | null = null): ArchivedSession[] {
  const out: ArchivedSession[] = [];
  for (const s of stages) {
    const file = join(s.observationsDir, 'sessions.json');
    if (!existsSync(file)) continue;
    for (const r of JSON.parse(readFileSync(file, 'utf8')) as SessionRecord[]) {
      const n = r.noise;
      // the flag the report uses, calibrated on the canary, where the analysis judged the session; else the fixed thresholds
      const calibrated = calibratedFlag(noise, r.session);
      const load = n
        ? {
            noisy: calibrated ? calibrated.noisy : n.noisy,
            reasons: calibrated ? calibrated.reasons : n.reasons,
            ...(calibrated ? { rule: 'canary' as const } : {}),
            loadAverageStart: n.loadAverageStart[0],
            loadAverageEnd: n.loadAverageEnd[0],
            idleShare: n.idleShare,
            stealShare: n.stealShare,
          }
        : null;
      out.push({
        session: r.session,
        attempt: r.attempt,
        host: r.host,
        startedAt: r.startedAt,
        endedAt: r.endedAt,
        fingerprint: r.fingerprint ?? null,
        noise: load,
      });
    }
  }
  return out.sort((a, b) => a.session - b.session || a.attempt - b.attempt);
}

export function filePublishedRun(publishedDir: string, experiment: string, stages: readonly FrozenStage[], label: string | null = null): ArchiveOutcome {
  // a no-op rerun republishes an archived run: found by its files' digests before the run's record is read together
  const filed = alreadyArchived(publishedDir, join(publishedDir, RUNS_DIR));
  if (filed) return filed;
  const archived: Record<string, ArchivedStage> = {};
  // Code-point order, as canonical JSON sorts keys (localeCompare's first call loads ICU's collator: about 13 ms of every no-op rerun).
  for (const s of [...stages].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    archived[s.id] = {
      uses: s.uses,
      key: s.key,
      outputDigest: s.outputDigest,
      code: s.keyInputs.code,
      config: s.keyInputs.config,
      params: s.keyInputs.params,
      ...(s.keyInputs.files ? { files: s.keyInputs.files } : {}),
    };
  }
  const analysis = analysisPartsOf(stages);
  return archiveRun({
    reportDir: publishedDir,
    runsDir: join(publishedDir, RUNS_DIR),
    experiment,
    source: 'published',
    label,
    stages: archived,
    sessions: sessionsOf(stages, analysis?.noise ?? null),
    canary: runCanaryOf(analysis?.canary ?? null),
  });
}

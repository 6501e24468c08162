// What `pipeline run` files when it publishes a launch report: the report's
// CSVs, each stage's own key inputs (code, config slice, parameters, files;
// not the digests of the stages it needs, which change with every new sample)
// and every session's host and fingerprint from the sampling observations.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionRecord } from '../contract/exchange-files.js';
import { archiveRun, type ArchiveOutcome } from './archive-run.js';
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

export function sessionsOf(stages: readonly FrozenStage[]): ArchivedSession[] {
  const out: ArchivedSession[] = [];
  for (const s of stages) {
    const file = join(s.observationsDir, 'sessions.json');
    if (!existsSync(file)) continue;
    for (const r of JSON.parse(readFileSync(file, 'utf8')) as SessionRecord[]) {
      const n = r.noise;
      const noise = n
        ? {
            noisy: n.noisy,
            reasons: n.reasons,
            loadAverageStart: n.loadAverageStart[0],
            loadAverageEnd: n.loadAverageEnd[0],
            idleShare: n.idleShare,
            stealShare: n.stealShare,
          }
        : null;
      out.push({ session: r.session, attempt: r.attempt, host: r.host, startedAt: r.startedAt, endedAt: r.endedAt, fingerprint: r.fingerprint ?? null, noise });
    }
  }
  return out.sort((a, b) => a.session - b.session || a.attempt - b.attempt);
}

export function filePublishedRun(publishedDir: string, experiment: string, stages: readonly FrozenStage[], label: string | null = null): ArchiveOutcome {
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
  return archiveRun({
    reportDir: publishedDir,
    runsDir: join(publishedDir, RUNS_DIR),
    experiment,
    source: 'published',
    label,
    stages: archived,
    sessions: sessionsOf(stages),
  });
}

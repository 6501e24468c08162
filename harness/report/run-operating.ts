// Pure: the default report's run as a design whose operating characteristics
// the Method states (comparison/operating-characteristics.ts): its looks (the
// sample stage's adaptive.json) or its sessions, its rounds, a whole
// session's formal launches, its budget and margin, and the variance profile
// of each path difference of Ready from this run's own launches.
import type { AnalysisResult } from '../analysis/analysis-result.js';
import { differenceProfiles } from '../comparison/difference-profiles.js';
import { runOperatingCharacteristics, type RunOperatingCharacteristics } from '../comparison/operating-characteristics.js';
import type { ReportInputs } from './report-inputs.js';

export function runOperating(inp: ReportInputs, a: AnalysisResult): RunOperatingCharacteristics | null {
  const rounds = inp.config.design?.rounds;
  const formal = inp.launches.filter((r) => r.phase === 'formal');
  if (!rounds || !formal.length) return null;
  const sessions = [...new Set(formal.map((r) => r.session))];
  const first = Math.min(...sessions);
  const adaptive = inp.adaptive ?? null;
  const comparisons = a.differences.filter((d) => d.metric === 'ready' && !d.factor).map((d) => ({ cohort: d.cohort, state: d.state, a: d.a, b: d.b }));
  const margin = adaptive ? { relative: adaptive.margin, ms: adaptive.minMs ?? 0 } : { relative: a.rules.practical.relative, ms: a.rules.practical.absoluteMs };
  return runOperatingCharacteristics(
    {
      looks: adaptive ? { minSessions: adaptive.minSessions, maxSessions: adaptive.maxSessions } : null,
      sessionsRun: sessions.length,
      roundsPerSession: rounds,
      launchesPerSession: formal.filter((r) => r.session === first).length,
      maxLaunches: adaptive?.maxLaunches ?? null,
      marginRelative: margin.relative,
      marginMs: margin.ms,
    },
    differenceProfiles(formal, comparisons, 'ready_ms'),
  );
}

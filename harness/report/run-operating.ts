// Pure: the default report's run as a design whose operating characteristics
// the Method states (comparison/run-rows-operating.ts): its looks (the sample
// stage's adaptive.json) or its sessions, its rounds, its budget and margin,
// and the variance profile of each path difference of Ready from this run's
// own launches.
import type { AnalysisResult } from '../analysis/analysis-result.js';
import type { RunOperatingCharacteristics } from '../comparison/operating-characteristics.js';
import { runRowsOperating } from '../comparison/run-rows-operating.js';
import type { ReportInputs } from './report-inputs.js';

export function runOperating(inp: ReportInputs, a: AnalysisResult): RunOperatingCharacteristics | null {
  const rounds = inp.config.design?.rounds;
  if (!rounds) return null;
  const adaptive = inp.adaptive ?? null;
  return runRowsOperating(
    inp.launches,
    a.differences.filter((d) => d.metric === 'ready' && !d.factor).map((d) => ({ cohort: d.cohort, state: d.state, a: d.a, b: d.b })),
    'ready_ms',
    {
      rounds,
      looks: adaptive ? { minSessions: adaptive.minSessions, maxSessions: adaptive.maxSessions, spendingRho: adaptive.spendingRho } : null,
      maxLaunches: adaptive?.maxLaunches ?? null,
      margin: adaptive ? { relative: adaptive.margin, absoluteMs: adaptive.minMs ?? 0 } : a.rules.practical,
    },
  );
}

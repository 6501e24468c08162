// The toy adapter: an in-process experiment on the model, for tests of the
// model itself (the driver, design.adaptive, added sessions): a stage
// context in a folder and an adapter over units `clear` (a 100 ms, b 150 ms,
// c 100 ms, 0.5% noise) and `noisy` (30% noise per session and arm), whose
// visits return rows with those values (no process runs). Used in process and
// by adaptive-child.ts, which a test kills with SIGKILL.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PipelineConfig } from '../../harness/config/pipeline-config.js';
import type { StageContext } from '../../harness/contract/stage.js';
import type { SampleRow } from '../../harness/db/sample-row.js';
import type { AdapterVisit, ExperimentAdapter } from '../../harness/experiment/sample-experiment.js';
import { seededRandom } from '../../harness/stats/seeded-random.js';
import { stageContext } from './stage-context.js';
import { analysisRules } from '../../harness/config/analysis-rules.js';

export function toyContext(root: string, adaptive: Record<string, unknown>, analysis: Record<string, unknown> = {}): StageContext {
  const outputDir = join(root, 'out');
  const ctx = stageContext(root, 'sample', outputDir, {}, {
    experiment: { name: 'made-up' },
    // the host canary has tests of its own (host-canary-experiment); here it would only add real launches
    design: { sessions: 1, rounds: 4, warmup_rounds: 0, seed: 'adaptive', order: 'balanced', disk_probe_mb: 0, canary: false, adaptive },
    executor: { kind: 'local' },
    // design.adaptive decides with analysis.practical and analysis.comparisons, typed at load as `rules`
    analysis,
    rules: analysisRules(analysis),
  } as unknown as PipelineConfig);
  for (const d of [outputDir, ctx.observationsDir, ctx.workDir, ctx.dataDir]) if (!existsSync(d)) mkdirSync(d, { recursive: true });
  return ctx;
}

export interface ToyOptions {
  /** Throw when this session opens. */
  crashIn?: number;
  /** In this session, after this many formal visits, write `stallFile` and never return (for a SIGKILL). */
  stall?: { session: number; afterVisits: number; stallFile: string };
}

export function toyAdapter(units: string[], options: ToyOptions = {}): ExperimentAdapter {
  const base: Record<string, number> = { a: 100, b: 150, c: 100 };
  const gauss = (seed: string): number => {
    const r = seededRandom(seed);
    return Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
  };
  const value = (v: AdapterVisit): number => {
    const session = v.unit === 'noisy' ? 0.3 * gauss(`s|${v.unit}|${v.arm}|${v.session}`) : 0;
    return base[v.arm]! * Math.exp(session + 0.005 * gauss(`r|${v.unit}|${v.arm}|${v.session}|${v.round}`));
  };
  return {
    units,
    arms: ['a', 'b', 'c'],
    conditions: ['none'],
    ourFolders: [],
    openSession: async (session) => {
      if (session === options.crashIn) throw new Error(`toy crash at the start of session ${session}`);
      let visits = 0;
      return {
        visit: async (v): Promise<SampleRow[]> => {
          const s = options.stall;
          if (s && v.session === s.session && visits++ === s.afterVisits) {
            writeFileSync(s.stallFile, String(process.pid));
            // A timer keeps the process alive: a pending promise alone would let Node exit.
            await new Promise(() => setInterval(() => undefined, 1000));
          }
          return [
            {
              experiment: 'made-up',
              cohort: v.unit,
              path: v.arm,
              state: 'none',
              phase: v.phase,
              round: v.round,
              order_in_round: v.position,
              launch_id: `${v.unit}.${v.arm}.none.${v.phase[0]}${v.round}.S${v.session}.a${v.attempt}`,
              session: v.session,
              host: 'unknown',
              ok: true,
              started_at: new Date(0).toISOString(),
              completion_ms: value(v),
            },
          ];
        },
        close: async () => undefined,
      };
    },
  };
}

// The plan check's inputs from a loaded pipeline (an edge: it reads the
// published samples): the plan as design.adaptive configures it, a whole
// session's formal launches (every cohort, path and state, design.rounds
// rounds), and the variance profile of each comparison it decides, from the
// experiment's published samples.csv (reports/<experiment>/samples.csv) when
// there is one. Null when design.adaptive is off.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSampleCsv } from '../analysis/parse-sample-csv.js';
import { adaptiveDesign, planOf, type AdaptiveRules } from './adaptive-plan.js';
import { differenceProfiles, type ProfiledComparison } from '../comparison/difference-profiles.js';
import type { DifferenceProfile, PlanUnderCheck } from '../comparison/plan-check.js';

/** The part of a loaded pipeline read here. */
export interface PlanConfig {
  experiment: { name: string };
  design: { rounds: number; states?: readonly string[] };
  cohorts?: Record<string, unknown>;
  paths?: Record<string, unknown>;
  /** analysis.practical and analysis.comparisons, which design.adaptive decides with. */
  rules?: AdaptiveRules;
}

export interface PlanCheckInputs {
  plan: PlanUnderCheck;
  profiles: DifferenceProfile[];
  /** Where the profiles came from, in words. */
  source: string;
}

export function planCheckInputs(config: PlanConfig, projectDir: string): PlanCheckInputs | null {
  const adaptive = adaptiveDesign((config.design as Record<string, unknown>)['adaptive'], config.rules);
  if (!adaptive) return null;
  const cohorts = Object.keys(config.cohorts ?? {});
  const paths = Object.keys(config.paths ?? {});
  const states = config.design.states ?? ['cold', 'warm'];
  const plan: PlanUnderCheck = {
    plan: planOf(adaptive),
    roundsPerSession: config.design.rounds,
    launchesPerSession: Math.max(1, cohorts.length * paths.length * states.length * config.design.rounds),
    maxLaunches: adaptive.maxLaunches,
    marginRelative: adaptive.marginRelative,
    marginMs: adaptive.minMs,
  };
  const pairs = adaptive.comparisons ?? paths.flatMap((a, i) => paths.slice(i + 1).map((b) => ({ a, b })));
  const comparisons: ProfiledComparison[] = cohorts.flatMap((cohort) => states.flatMap((state) => pairs.map((p) => ({ cohort, state, ...p }))));
  const file = join(projectDir, 'reports', config.experiment.name, 'samples.csv');
  if (!existsSync(file)) return { plan, profiles: [], source: `no published samples at reports/${config.experiment.name}/samples.csv` };
  const rows = parseSampleCsv(readFileSync(file, 'utf8'), file);
  const profiles = differenceProfiles(rows, comparisons, adaptive.metric);
  const sampled = new Set(rows.map((r) => r.path));
  const unsampled = paths.filter((p) => !sampled.has(p));
  const missing = comparisons.length - profiles.length;
  const without = missing
    ? `; ${missing} of ${comparisons.length} comparisons have none there${unsampled.length ? ` (paths the published run did not sample: ${unsampled.join(', ')})` : ''}`
    : '';
  return { plan, profiles, source: `profiles of reports/${config.experiment.name}/samples.csv${without}` };
}

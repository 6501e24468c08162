// Coverage and power of the published intervals and of the rule for
// "detected" (detection-rule.ts), by simulation with a known truth.
//
// One simulated experiment: K sessions of `rounds` paired rounds, one launch
// of a and one of b per round. On the log scale, per session a pair of
// session offsets (Sa, Sb), per round a pair of round offsets (ea, eb), each
// pair bivariate normal with the profile's sd and correlation
// (simulation-profile.ts); a = m (1 + effect) exp(Sa + ea), b = m exp(Sb + eb).
// The marginal median of a is m (1 + effect) and of b is m, so the true
// difference of medians, the estimand of the two-level bootstrap, is m * effect.
//
// Per experiment the project's own functions give the two-level bootstrap
// interval, the between-session t interval (K >= 3) and the verdict
// (stats/paired-comparison.ts, the one comparison statistic). Counted: the bootstrap interval covers the truth; the
// t interval covers it; "detected" (for effect > 0: detected with a > b).
// Every number comes from seededRandom with seeds derived from `seed`, K,
// rounds, the effect and the experiment's index, so a table is reproducible
// and one configuration does not change another.
import { pairedComparison } from './paired-comparison.js';
import { seededRandom, type Random } from './seeded-random.js';
import type { PairedSession } from './two-level-bootstrap.js';
import type { VarianceProfile } from './simulation-profile.js';

export interface SimulationConfig {
  sessions: number;
  rounds: number;
  /** True relative difference of medians, (median a - median b) / median b. */
  effect: number;
}

export interface SimulationOptions {
  experiments: number;
  resamples: number;
  confidence: number;
  seed: string;
}

export interface SimulationCell extends SimulationConfig {
  experiments: number;
  /** Experiments whose two-level bootstrap interval holds the true difference. */
  bootstrapCovers: number;
  /** Experiments whose between-session t interval holds it (0 with K < 3). */
  tCovers: number;
  /** Experiments the rule calls detected (effect > 0: with the true sign). */
  detected: number;
}

function normalPair(random: Random, sd: number, corr: number): [number, number] {
  // Box-Muller: two independent standard normals, then a correlated pair.
  const u = 1 - random();
  const v = random();
  const radius = Math.sqrt(-2 * Math.log(u));
  const z1 = radius * Math.cos(2 * Math.PI * v);
  const z2 = radius * Math.sin(2 * Math.PI * v);
  return [sd * z1, sd * (corr * z1 + Math.sqrt(1 - corr * corr) * z2)];
}

/** One synthetic experiment with the profile's variance components and the given true effect. */
export function simulateExperiment(profile: VarianceProfile, config: SimulationConfig, random: Random): PairedSession[] {
  const sessions: PairedSession[] = [];
  const ma = profile.medianMs * (1 + config.effect);
  for (let s = 1; s <= config.sessions; s++) {
    const [sa, sb] = normalPair(random, profile.sessionSd, profile.sessionCorr);
    const rounds = [];
    for (let r = 0; r < config.rounds; r++) {
      const [ea, eb] = normalPair(random, profile.roundSd, profile.roundCorr);
      rounds.push({ a: [ma * Math.exp(sa + ea)], b: [profile.medianMs * Math.exp(sb + eb)] });
    }
    sessions.push({ session: s, rounds });
  }
  return sessions;
}

export function simulateCell(profile: VarianceProfile, config: SimulationConfig, options: SimulationOptions): SimulationCell {
  const truth = profile.medianMs * config.effect;
  const base = `${options.seed}|K${config.sessions}|r${config.rounds}|e${config.effect}`;
  const cell: SimulationCell = { ...config, experiments: options.experiments, bootstrapCovers: 0, tCovers: 0, detected: 0 };
  for (let i = 0; i < options.experiments; i++) {
    const data = simulateExperiment(profile, config, seededRandom(`${base}|${i}|data`));
    const r = pairedComparison(data, 'difference', { resamples: options.resamples, confidence: options.confidence, seed: `${base}|${i}|bootstrap` });
    if (r.low! <= truth && truth <= r.high!) cell.bootstrapCovers++;
    if (r.sessionLow !== null && r.sessionHigh !== null && r.sessionLow <= truth && truth <= r.sessionHigh) cell.tCovers++;
    if (r.findings.detected && (config.effect === 0 || r.observed! > 0)) cell.detected++;
  }
  return cell;
}

/** Every (K, rounds, effect) of the grid, in that order. */
export function simulateGrid(
  profile: VarianceProfile,
  grid: { sessions: readonly number[]; rounds: readonly number[]; effects: readonly number[] },
  options: SimulationOptions,
): SimulationCell[] {
  const out: SimulationCell[] = [];
  for (const sessions of grid.sessions)
    for (const rounds of grid.rounds) for (const effect of grid.effects) out.push(simulateCell(profile, { sessions, rounds, effect }, options));
  return out;
}

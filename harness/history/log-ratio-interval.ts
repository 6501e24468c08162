// The ratio after/before of two groups of positive values (per-session
// medians) with a Welch interval on their logarithms: the ratio of geometric
// means exp(mean(log y) − mean(log x)) and exp of the Welch t interval of
// that difference (Welch–Satterthwaite degrees of freedom). Pure. Needs two
// values on each side; with no spread on either side the interval is the point.
import { studentTQuantile } from '../stats/student-t.js';

export interface RatioInterval {
  ratio: number;
  low: number;
  high: number;
  degreesOfFreedom: number;
}

function meanVar(v: readonly number[]): { mean: number; variance: number } {
  const mean = v.reduce((s, x) => s + x, 0) / v.length;
  return { mean, variance: v.reduce((s, x) => s + (x - mean) ** 2, 0) / (v.length - 1) };
}

export function logRatioInterval(before: readonly number[], after: readonly number[], confidence: number): RatioInterval | null {
  if (before.length < 2 || after.length < 2 || ![...before, ...after].every((v) => v > 0 && Number.isFinite(v))) return null;
  const x = meanVar(before.map(Math.log));
  const y = meanVar(after.map(Math.log));
  const a = x.variance / before.length;
  const b = y.variance / after.length;
  const diff = y.mean - x.mean;
  const se = Math.sqrt(a + b);
  if (se === 0) return { ratio: Math.exp(diff), low: Math.exp(diff), high: Math.exp(diff), degreesOfFreedom: before.length + after.length - 2 };
  const df = (a + b) ** 2 / (a ** 2 / (before.length - 1) + b ** 2 / (after.length - 1));
  const half = studentTQuantile((1 + confidence) / 2, df) * se;
  return { ratio: Math.exp(diff), low: Math.exp(diff - half), high: Math.exp(diff + half), degreesOfFreedom: df };
}

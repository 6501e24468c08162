// Pure: the practical-significance floor of the effect table
// (analysis.practical). A detected effect is worth keeping only when it is
// at least min_ratio_change away from no change (|after/before − 1|) and,
// for a row in ms, at least min_ms in P50 milliseconds. A smaller detected
// effect is "too small to keep": real, but not worth an engineer's change.
import { defaultPracticalMargin, type PracticalMargin } from '../config/practical-margin.js';

export interface PracticalFloor {
  /** Smallest |after/before − 1| of the ratio of medians worth keeping (0.05 = 5%). */
  minRatioChange: number;
  /** Smallest |P50 after − P50 before| in ms worth keeping (rows measured in ms only). */
  minMs: number;
}

const asFloor = (m: PracticalMargin): PracticalFloor => ({ minRatioChange: m.relative, minMs: m.absoluteMs });

export const DEFAULT_PRACTICAL_FLOOR: PracticalFloor = asFloor(defaultPracticalMargin);

/** analysis.practical, as the config typed it at load (config/practical-margin.ts), as a floor. */
export function practicalFloor(margin: PracticalMargin): PracticalFloor {
  return asFloor(margin);
}

/** Why an effect falls below the floor, or null when it clears it. */
export function belowFloor(ratio: number, deltaMs: number | null, floor: PracticalFloor): string | null {
  const change = Math.abs(ratio - 1);
  const parts: string[] = [];
  if (change < floor.minRatioChange) parts.push(`a ${(change * 100).toFixed(1)}% change is below ${(floor.minRatioChange * 100).toFixed(0)}%`);
  if (deltaMs !== null && Math.abs(deltaMs) < floor.minMs) parts.push(`${Math.abs(deltaMs).toFixed(1)} ms is below ${floor.minMs} ms`);
  return parts.length ? parts.join(', and ') : null;
}

export function floorText(floor: PracticalFloor): string {
  return `at least ${(floor.minRatioChange * 100).toFixed(0)}% and ${floor.minMs} ms`;
}

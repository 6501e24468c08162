// Pure: the unit durations are shown in (`--time-unit`, as hyperfine's), and
// durations written in it.
export type TimeUnit = 'microsecond' | 'millisecond' | 'second';

export const TIME_UNITS: readonly TimeUnit[] = ['microsecond', 'millisecond', 'second'];

const SYMBOL: Record<TimeUnit, string> = { microsecond: 'µs', millisecond: 'ms', second: 's' };
const PER_MS: Record<TimeUnit, number> = { microsecond: 1000, millisecond: 1, second: 0.001 };

export function unitSymbol(unit: TimeUnit): string {
  return SYMBOL[unit];
}

/** Without --time-unit: seconds when every median is at least 1 s, otherwise milliseconds. */
export function autoUnit(mediansMs: readonly number[]): TimeUnit {
  return mediansMs.length > 0 && mediansMs.every((m) => m >= 1000) ? 'second' : 'millisecond';
}

/** A number of ms in `unit`, with 3 significant decimals for small values. */
export function inUnit(ms: number, unit: TimeUnit): string {
  const v = ms * PER_MS[unit];
  const a = Math.abs(v);
  return v.toFixed(a < 10 ? 3 : a < 100 ? 2 : 1);
}

export function withUnit(ms: number, unit: TimeUnit): string {
  return `${inUnit(ms, unit)} ${SYMBOL[unit]}`;
}

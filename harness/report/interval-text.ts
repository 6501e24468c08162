// Pure: a difference's two-level interval as the report prints it (issue 42,
// item 5): each endpoint to the digits its seed spread supports
// (stats/seed-spread.ts), from report.ms_decimals down to whole ms, and where
// the endpoints move by more than half a ms with the seed, that move said
// right after them ("[low, high]±N"). An endpoint that would round to 0 keeps the digit
// that shows its sign, so an interval that excludes 0 never prints touching it.
import { fixed } from '../publish/format-number.js';
import { intervalDigits, spreadBeyondDigits } from '../stats/seed-spread.js';

/** The decimals a difference's endpoints are printed with: the most, up to msDecimals, that its seed spread supports; never below 0. */
export function endpointDigits(seedSpreadMs: number | null | undefined, msDecimals: number): number {
  return intervalDigits(seedSpreadMs ?? null, msDecimals, 0);
}

/** One endpoint with `digits` decimals; one rounding to 0 gets up to two more, so its sign shows. */
export function endpointText(valueMs: number, digits: number): string {
  for (let d = digits; d < digits + 2; d++) if (Math.abs(valueMs) >= 0.5 * 10 ** -d) return fixed(valueMs, d);
  return fixed(valueMs, digits + 2);
}

/** A seed spread in ms: one decimal below 10 ms, whole ms above. */
const spreadText = (ms: number): string => fixed(ms, ms < 10 ? 1 : 0);

/**
 * "[low, high]", or "[low, high]±N" where the seed moves the endpoints beyond the half-unit of their digits.
 * `sayMove` false: an interval derived from one printed beside it with its move (the rerun interval), so not said twice.
 */
export function msIntervalText(lowMs: number, highMs: number, seedSpreadMs: number | null | undefined, msDecimals: number, sayMove = true): string {
  const digits = endpointDigits(seedSpreadMs, msDecimals);
  const moves = sayMove && spreadBeyondDigits(seedSpreadMs ?? null, digits) ? `±${spreadText(seedSpreadMs!)}` : '';
  return `[${endpointText(lowMs, digits)}, ${endpointText(highMs, digits)}]${moves}`;
}

/**
 * Said once under a table whose intervals are printed with fewer digits than report.ms_decimals, or with "±N":
 * how far the endpoints move with the bootstrap seed and what the printing does about it; null when none is.
 */
export function seedDigitsLegend(spreadsMs: readonly (number | null | undefined)[], msDecimals: number): string | null {
  const known = spreadsMs.filter((s): s is number => s !== null && s !== undefined);
  const fewer = known.filter((s) => endpointDigits(s, msDecimals) < msDecimals);
  if (!fewer.length) return null;
  const said = known.filter((s) => spreadBeyondDigits(s, endpointDigits(s, msDecimals))).length;
  return (
    `endpoints have the digits two more bootstrap seeds agree on` +
    (said ? `; ±N: they move it N ms (${said} of ${known.length}, up to ${spreadText(Math.max(...known))})` : '')
  );
}

// Fixed, locale-independent number formatting: the same value always gives
// the same characters (no toLocaleString, no exponent notation).

/** Fixed decimals; "-0.0" is written "0.0"; the minus sign is ASCII. */
export function fixed(value: number, decimals: number): string {
  const s = value.toFixed(decimals);
  return /^-0\.?0*$/.test(s) ? s.slice(1) : s;
}

/** Thousands separated by commas: 115930809 -> "115,930,809". */
export function grouped(value: number): string {
  const s = fixed(value, 0);
  const neg = s.startsWith('-');
  const digits = neg ? s.slice(1) : s;
  return (neg ? '-' : '') + digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

export function orDash(value: number | null, format: (v: number) => string): string {
  return value === null || !Number.isFinite(value) ? '-' : format(value);
}

/** The one CSV writer lives in db/csv-text.ts. */
export { csv, csvField } from '../db/csv-text.js';

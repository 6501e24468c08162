// Differences between two config values, key by key, in words:
// `paths.lazy.env.RCLONE_BWLIMIT changed (unset) -> 40M`. Pure. Used by
// `pipeline status` (why a stage is stale) and `pipeline history` (what
// changed between two runs).
import { canonicalJson } from '../digest/canonical-json.js';

export interface ValueChange {
  /** Dotted key, e.g. paths.lazy.launch. */
  key: string;
  before: unknown;
  after: unknown;
}

/** Every leaf key whose value differs; objects are walked, arrays and scalars compared whole. */
export function configChanges(prefix: string, a: unknown, b: unknown, out: ValueChange[] = []): ValueChange[] {
  if (canonicalJson(a) === canonicalJson(b)) return out;
  const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
  if (isObj(a) && isObj(b)) {
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) configChanges(prefix ? `${prefix}.${k}` : k, a[k], b[k], out);
    return out;
  }
  out.push({ key: prefix, before: a, after: b });
  return out;
}

/** A value as a short string: `(unset)` for undefined or null, JSON for others, cut at 60 characters. */
export function showValue(v: unknown): string {
  if (v === undefined || v === null) return '(unset)';
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s.length > 60 ? s.slice(0, 57) + '...' : s;
}

/** `KEY changed BEFORE -> AFTER` */
export function describeChange(c: ValueChange): string {
  return `${c.key} changed ${showValue(c.before)} -> ${showValue(c.after)}`;
}

// Why a stage is stale, in words, from the key inputs of its last frozen run
// and the current ones. Pure.
import { configChanges, describeChange } from '../config/config-diff.js';
import type { KeyInputs } from './stage-key.js';

export function explainChange(before: KeyInputs, now: KeyInputs, limit = 6): string[] {
  const reasons: string[] = [];
  const files = new Set([...Object.keys(before.code), ...Object.keys(now.code)]);
  for (const f of [...files].sort()) {
    if (before.code[f] === now.code[f]) continue;
    if (!(f in before.code)) reasons.push(`code file ${f} added`);
    else if (!(f in now.code)) reasons.push(`code file ${f} removed`);
    else reasons.push(`code of ${f} changed`);
  }
  for (const f of [...new Set([...Object.keys(before.files ?? {}), ...Object.keys(now.files ?? {})])].sort()) {
    if (before.files?.[f] !== now.files?.[f]) reasons.push(`input file ${f} changed`);
  }
  diffValues('', before.config, now.config, reasons);
  diffValues('with', before.params, now.params, reasons);
  const needs = new Set([...Object.keys(before.needs), ...Object.keys(now.needs)]);
  for (const n of [...needs].sort()) {
    if (before.needs[n] === now.needs[n]) continue;
    if (!(n in before.needs)) reasons.push(`now needs ${n}`);
    else if (!(n in now.needs)) reasons.push(`no longer needs ${n}`);
    else reasons.push(`upstream ${n} changed`);
  }
  if (reasons.length > limit) return [...reasons.slice(0, limit), `and ${reasons.length - limit} more changes`];
  return reasons;
}

function diffValues(prefix: string, a: unknown, b: unknown, out: string[]): void {
  for (const c of configChanges(prefix, a, b)) out.push(describeChange(c));
}

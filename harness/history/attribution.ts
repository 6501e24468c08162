// What differs between two runs, from their provenance. Pure.
//   config   every config key the stages read, as `pipeline status` explains a
//            stale stage (config-diff.ts), once per key even when several stages read it;
//   with     a stage's parameters;
//   code     a code file or script of a stage (its digest in the stage key);
//   binary   a pinned binary's version or digest (provenance.csv);
//   image    an image's digest (tar, manifest, erofs);
//   host     a host fingerprint field (fingerprint-diff.ts);
//   load     not an input but a possible cause: the host's other load, when the
//            share of sessions the noisy-session rule flagged differs, or the
//            mean idle share of the CPUs moved by LOAD_IDLE_POINTS or more.
// A run whose key inputs were not recorded (an imported report folder) gives
// one `inputs` entry saying so, and the other kinds still compare.
import { configChanges, showValue } from '../config/config-diff.js';
import { fingerprintChanges } from '../process/fingerprint-diff.js';
import type { HistoryRun } from './history-run.js';

export interface ChangedInput {
  kind: 'config' | 'with' | 'code' | 'binary' | 'image' | 'host' | 'load' | 'inputs';
  key: string;
  before: string;
  after: string;
  /** Set on a config key of another path or cohort than the cell's (paths.X, cohorts.Y): listed, but not the cell's own input. */
  elsewhere?: true;
}

/** Pure: marks config keys of other paths and cohorts than the cell's as `elsewhere`, listing the cell's own inputs first. */
export function forCell(changed: readonly ChangedInput[], cell: { cohort: string; path: string }): ChangedInput[] {
  const other = (c: ChangedInput): boolean => {
    if (c.kind !== 'config') return false;
    const [section, name] = c.key.split('.');
    return (section === 'paths' && name !== cell.path) || (section === 'cohorts' && name !== cell.cohort);
  };
  return [...changed.filter((c) => !other(c)), ...changed.filter(other).map((c) => ({ ...c, elsewhere: true as const }))];
}

export function changedInputs(before: HistoryRun, after: HistoryRun): ChangedInput[] {
  const out: ChangedInput[] = [];
  const seen = new Set<string>();
  const push = (c: ChangedInput): void => {
    const k = `${c.kind}\u0000${c.key}`;
    if (seen.has(k)) return;
    seen.add(k);
    out.push(c);
  };
  const a = before.record?.stages ?? null;
  const b = after.record?.stages ?? null;
  if (!a || !b) {
    push({ kind: 'inputs', key: 'stages', before: a ? 'recorded' : 'not recorded', after: b ? 'recorded' : 'not recorded' });
  } else {
    for (const id of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      const x = a[id];
      const y = b[id];
      if (!x || !y) continue; // a stage added or removed shows as the config keys and code that came with it
      for (const c of configChanges('', x.config, y.config)) push({ kind: 'config', key: c.key, before: showValue(c.before), after: showValue(c.after) });
      for (const c of configChanges('with', x.params, y.params))
        push({ kind: 'with', key: `${id}.${c.key}`, before: showValue(c.before), after: showValue(c.after) });
      for (const f of [...new Set([...Object.keys(x.code), ...Object.keys(y.code)])].sort()) {
        if (x.code[f] !== y.code[f])
          push({ kind: 'code', key: f, before: x.code[f]?.slice(0, 12) ?? '(absent)', after: y.code[f]?.slice(0, 12) ?? '(absent)' });
      }
      for (const f of [...new Set([...Object.keys(x.files ?? {}), ...Object.keys(y.files ?? {})])].sort()) {
        if (x.files?.[f] !== y.files?.[f])
          push({ kind: 'code', key: `input file ${f}`, before: x.files?.[f]?.slice(0, 12) ?? '(absent)', after: y.files?.[f]?.slice(0, 12) ?? '(absent)' });
      }
    }
  }
  const items = (r: HistoryRun): Map<string, { version: string; sha256: string }> => new Map(r.provenance.map((p) => [`${p.kind}\u0000${p.name}`, p]));
  const pa = items(before);
  const pb = items(after);
  for (const k of [...new Set([...pa.keys(), ...pb.keys()])].sort()) {
    const [kind, name] = k.split('\u0000') as [string, string];
    const x = pa.get(k);
    const y = pb.get(k);
    if (!x || !y) {
      if (pa.size && pb.size)
        push({
          kind: kind === 'binary' ? 'binary' : 'image',
          key: `${kind} ${name}`,
          before: x ? x.version || x.sha256.slice(0, 12) : '(absent)',
          after: y ? y.version || y.sha256.slice(0, 12) : '(absent)',
        });
      continue;
    }
    if (kind === 'binary' && (x.version !== y.version || x.sha256 !== y.sha256)) {
      push({ kind: 'binary', key: name, before: `${x.version} ${x.sha256.slice(0, 12)}`, after: `${y.version} ${y.sha256.slice(0, 12)}` });
    } else if (kind !== 'binary' && x.sha256 !== y.sha256) {
      push({ kind: 'image', key: `${kind} ${name}`, before: x.sha256.slice(0, 12), after: y.sha256.slice(0, 12) });
    }
  }
  if (before.fingerprint && after.fingerprint) {
    for (const c of fingerprintChanges(before.fingerprint.fingerprint, after.fingerprint.fingerprint))
      push({ kind: 'host', key: c.field, before: c.before, after: c.after });
  }
  const la = loadOf(before);
  const lb = loadOf(after);
  if (la && lb && (la.noisy !== lb.noisy || Math.abs(la.idle - lb.idle) >= LOAD_IDLE_POINTS / 100)) {
    const show = (l: NonNullable<ReturnType<typeof loadOf>>): string => `${l.noisy} noisy, idle ${Math.round(l.idle * 100)}%, load ${l.load.toFixed(1)}`;
    push({ kind: 'load', key: 'sessions', before: show(la), after: show(lb) });
  }
  return out;
}

/** A difference of this many points in the mean idle share of the CPUs counts as a load change. */
export const LOAD_IDLE_POINTS = 20;

function loadOf(r: HistoryRun): { noisy: string; idle: number; load: number } | null {
  const loads = (r.record?.sessions ?? []).map((s) => s.noise).filter((n): n is NonNullable<typeof n> => !!n);
  if (!loads.length) return null;
  const mean = (f: (n: (typeof loads)[number]) => number): number => loads.reduce((s, n) => s + f(n), 0) / loads.length;
  return {
    noisy: `${loads.filter((n) => n.noisy).length}/${loads.length}`,
    idle: mean((n) => n.idleShare),
    load: mean((n) => (n.loadAverageStart + n.loadAverageEnd) / 2),
  };
}

/** `paths.lazy.env.RCLONE_BWLIMIT ((unset) → 40M); host: same` */
export function describeInputs(changed: readonly ChangedInput[], hostKnown: boolean): string {
  const shown = (c: ChangedInput): string => `${c.kind === 'config' ? '' : c.kind + ' '}${c.key} (${c.before} → ${c.after})`;
  const elsewhere = changed.filter((c) => c.elsewhere);
  const parts = changed
    .filter((c) => c.kind !== 'host' && c.kind !== 'load' && !c.elsewhere)
    .map((c) => (c.kind === 'inputs' ? 'inputs of one run not recorded' : `${c.kind === 'config' ? '' : c.kind + ' '}${c.key} (${c.before} → ${c.after})`));
  const host = changed.filter((c) => c.kind === 'host');
  const hostText = !hostKnown
    ? 'host: not recorded'
    : host.length
      ? `host: ${host.map((c) => `${c.key} (${c.before} → ${c.after})`).join(', ')}`
      : 'host: same';
  const load = changed.find((c) => c.kind === 'load');
  return [
    parts.length ? parts.join(', ') : 'no recorded input of this cell',
    ...(elsewhere.length ? [`elsewhere: ${elsewhere.map(shown).join(', ')}`] : []),
    hostText,
    ...(load ? [`host load: ${load.before} → ${load.after}`] : []),
  ].join('; ');
}

// What could have moved a sample between two runs, from their provenance. Pure.
//
// A cell's session medians come from the samples, so only these can move them
// (issue 28): the key inputs of the stages that make the samples (the sample
// stage and the stages before it: pin, prepare, warmup; every stage whose kind
// does not only read samples, see readsSamplesOnly), the pinned binaries and
// images, the environment (the host's other load) and the host fingerprint.
// Code and config of the stages that only read samples (verify, analyze,
// report) are never named as a cause; they are counted, and listed with
// --verbose. Kinds:
//   config   a config key a sample-making stage reads (config-diff.ts), once per key;
//   with     a sample-making stage's parameters;
//   code     a code file or input file of a sample-making stage (its digest in the stage key);
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
import type { ArchivedStage } from './run-record.js';

export interface ChangedInput {
  kind: 'config' | 'with' | 'code' | 'binary' | 'image' | 'host' | 'load' | 'inputs';
  key: string;
  before: string;
  after: string;
  /** Set on a config key of another path or cohort than the cell's (paths.X, cohorts.Y): listed, but not the cell's own input. */
  elsewhere?: true;
}

export interface Attribution {
  /** What could have moved a sample: inputs of the sample-making stages, pins, host, load. */
  changed: ChangedInput[];
  /** Changed code and input files of every stage, and those among them that are inputs of a sample-making stage. */
  files: { changed: string[]; ofSample: string[] };
  /** Changed config keys and parameters of the stages that only read samples (never a cause; for --verbose). */
  notInputs: string[];
  /** The sample stage's key on each side (null when not recorded). */
  sampleKeys: { before: string | null; after: string | null };
  /** Both runs have a host fingerprint. */
  hostKnown: boolean;
}

/** Stage kinds that only read samples (verify, analyze, report and their experiment variants): their inputs cannot move a sample. */
export function readsSamplesOnly(uses: string): boolean {
  return /(^|-)(verify|analyze|report)$/.test(uses);
}

/** The key of the stage that makes the samples (kind `sample`, `*-sample`, `import-samples`), or null. */
export function sampleStageKey(stages: Record<string, ArchivedStage> | null): string | null {
  if (!stages) return null;
  const s = Object.values(stages).filter((x) => /(^|-)samples?$/.test(x.uses));
  return s.length ? s.map((x) => x.key).join('+') : null;
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

export function attribute(before: HistoryRun, after: HistoryRun): Attribution {
  const out: ChangedInput[] = [];
  const seen = new Set<string>();
  const push = (c: ChangedInput): void => {
    const k = `${c.kind}\u0000${c.key}`;
    if (seen.has(k)) return;
    seen.add(k);
    out.push(c);
  };
  const files = new Set<string>();
  const ofSample = new Set<string>();
  const notInputs = new Set<string>();
  const a = before.record?.stages ?? null;
  const b = after.record?.stages ?? null;
  if (!a || !b) {
    push({ kind: 'inputs', key: 'stages', before: a ? 'recorded' : 'not recorded', after: b ? 'recorded' : 'not recorded' });
  } else {
    for (const id of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      const x = a[id];
      const y = b[id];
      if (!x || !y) continue; // a stage added or removed shows as the config keys and code that came with it
      const cause = !readsSamplesOnly(y.uses);
      for (const c of configChanges('', x.config, y.config)) {
        if (cause) push({ kind: 'config', key: c.key, before: showValue(c.before), after: showValue(c.after) });
        else notInputs.add(`${id}: ${c.key}`);
      }
      for (const c of configChanges('with', x.params, y.params)) {
        if (cause) push({ kind: 'with', key: `${id}.${c.key}`, before: showValue(c.before), after: showValue(c.after) });
        else notInputs.add(`${id}: ${c.key}`);
      }
      const fileChange = (key: string, name: string, p: string | undefined, q: string | undefined): void => {
        files.add(name);
        if (!cause) return;
        ofSample.add(name);
        push({ kind: 'code', key, before: p?.slice(0, 12) ?? '(absent)', after: q?.slice(0, 12) ?? '(absent)' });
      };
      for (const f of [...new Set([...Object.keys(x.code), ...Object.keys(y.code)])].sort())
        if (x.code[f] !== y.code[f]) fileChange(f, f, x.code[f], y.code[f]);
      for (const f of [...new Set([...Object.keys(x.files ?? {}), ...Object.keys(y.files ?? {})])].sort())
        if (x.files?.[f] !== y.files?.[f]) fileChange(`input file ${f}`, f, x.files?.[f], y.files?.[f]);
    }
  }
  const pinKey = (stages: Record<string, ArchivedStage> | null): string | null =>
    stages ? (Object.values(stages).find((x) => /(^|-)pin$/.test(x.uses))?.key ?? null) : null;
  const samePin = pinKey(a) !== null && pinKey(a) === pinKey(b);
  const items = (r: HistoryRun): Map<string, { version: string; sha256: string }> => new Map(r.provenance.map((p) => [`${p.kind}\u0000${p.name}`, p]));
  const pa = items(before);
  const pb = items(after);
  for (const k of [...new Set([...pa.keys(), ...pb.keys()])].sort()) {
    const [kind, name] = k.split('\u0000') as [string, string];
    const x = pa.get(k);
    const y = pb.get(k);
    if (!x || !y) {
      // A report lists the pinned tools its experiment used (since 2026-12-03), so a binary on one list only
      // is a recording difference when the pin stage is the same stage: its pins are the same by construction.
      if (pa.size && pb.size && !samePin)
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
  // flags by two different rules are not compared: only the idle share then says the load moved
  if (la && lb && ((la.rule === lb.rule && la.noisy !== lb.noisy) || Math.abs(la.idle - lb.idle) >= LOAD_IDLE_POINTS / 100)) {
    const show = (l: NonNullable<ReturnType<typeof loadOf>>): string => `${l.noisy}, idle ${Math.round(l.idle * 100)}%, load ${l.load.toFixed(1)}`;
    push({ kind: 'load', key: 'sessions', before: show(la), after: show(lb) });
  }
  return {
    changed: out,
    files: { changed: [...files].sort(), ofSample: [...ofSample].sort() },
    notInputs: [...notInputs].sort(),
    sampleKeys: { before: sampleStageKey(a), after: sampleStageKey(b) },
    hostKnown: !!before.fingerprint && !!after.fingerprint,
  };
}

/** A difference of this many points in the mean idle share of the CPUs counts as a load change. */
export const LOAD_IDLE_POINTS = 20;

/**
 * The sessions' noise flags of a run: `1/3 noisy` from the flag calibrated on the canary (run.json `rule:
 * 'canary'`, what the report says), `3/3 noisy (fixed thresholds)` from a run archived before run.json kept it,
 * whose flag was the fixed thresholds' (on for every session of the published host kind); null when not recorded.
 */
export function noisyFlags(r: HistoryRun): { text: string; rule: 'canary' | 'fixed' } | null {
  const loads = (r.record?.sessions ?? []).map((s) => s.noise).filter((n): n is NonNullable<typeof n> => !!n);
  if (!loads.length) return null;
  const rule = loads.every((n) => n.rule === 'canary') ? 'canary' : 'fixed';
  return { text: `${loads.filter((n) => n.noisy).length}/${loads.length} noisy${rule === 'fixed' ? ' (fixed thresholds)' : ''}`, rule };
}

function loadOf(r: HistoryRun): { noisy: string; rule: 'canary' | 'fixed'; idle: number; load: number } | null {
  const loads = (r.record?.sessions ?? []).map((s) => s.noise).filter((n): n is NonNullable<typeof n> => !!n);
  const flags = noisyFlags(r);
  if (!loads.length || !flags) return null;
  const mean = (f: (n: (typeof loads)[number]) => number): number => loads.reduce((s, n) => s + f(n), 0) / loads.length;
  return {
    noisy: flags.text,
    rule: flags.rule,
    idle: mean((n) => n.idleShare),
    load: mean((n) => (n.loadAverageStart + n.loadAverageEnd) / 2),
  };
}

/** Items shown on one line before the rest collapse into "and N more". */
export const SHOWN_ITEMS = 3;
/** A value on one line is cut to this many characters. */
export const SHOWN_VALUE_CHARS = 40;

const cut = (s: string, verbose: boolean): string => (verbose || s.length <= SHOWN_VALUE_CHARS ? s : s.slice(0, SHOWN_VALUE_CHARS - 1) + '…');
const list = (items: string[], verbose: boolean): string =>
  verbose || items.length <= SHOWN_ITEMS ? items.join(', ') : `${items.slice(0, SHOWN_ITEMS).join(', ')} and ${items.length - SHOWN_ITEMS} more (--verbose)`;

/**
 * One line: `paths.lazy.launch ([..] → [..]); host: same`, or
 * `no input of the sample stage changed (same sample-stage key 0c9c62db410e); host: same; 45 files changed, 0 of them inputs of the sample stage`.
 * `changed` is the attribution's list, possibly marked for a cell (forCell); --verbose shows every item and value whole.
 */
export function describeInputs(
  changed: readonly ChangedInput[],
  at: Pick<Attribution, 'files' | 'notInputs' | 'sampleKeys' | 'hostKnown'>,
  verbose = false,
): string {
  const shown = (c: ChangedInput): string => `${c.kind === 'config' ? '' : c.kind + ' '}${c.key} (${cut(c.before, verbose)} → ${cut(c.after, verbose)})`;
  const own = changed.filter((c) => c.kind !== 'host' && c.kind !== 'load' && !c.elsewhere);
  const elsewhere = changed.filter((c) => c.elsewhere);
  const code = own.filter((c) => c.kind === 'code');
  const parts = [
    ...own.filter((c) => c.kind !== 'code').map((c) => (c.kind === 'inputs' ? 'inputs of one run not recorded' : shown(c))),
    ...(code.length ? [`${code.length} code file${code.length === 1 ? '' : 's'} of the sample stage: ${list(code.map(shown), verbose)}`] : []),
  ];
  const sameKey = at.sampleKeys.before !== null && at.sampleKeys.before === at.sampleKeys.after;
  const host = changed.filter((c) => c.kind === 'host');
  const hostItem = (c: ChangedInput): string => `${c.key} (${cut(c.before, verbose)} → ${cut(c.after, verbose)})`;
  const hostText = !at.hostKnown ? 'host: not recorded' : host.length ? `host: ${list(host.map(hostItem), verbose)}` : 'host: same';
  const load = changed.find((c) => c.kind === 'load');
  const others = at.files.changed.length - at.files.ofSample.length;
  return [
    parts.length
      ? parts.join(', ')
      : sameKey
        ? `no input of the sample stage changed (same sample-stage key ${at.sampleKeys.before!.slice(0, 12)})`
        : 'no recorded input of this cell',
    ...(elsewhere.length ? [`elsewhere: ${list(elsewhere.map(shown), verbose)}`] : []),
    hostText,
    ...(load ? [`host load: ${load.before} → ${load.after}`] : []),
    ...(others > 0 || (verbose && at.notInputs.length)
      ? [
          `${at.files.changed.length} file${at.files.changed.length === 1 ? '' : 's'} changed, ${at.files.ofSample.length} of them inputs of the sample stage` +
            (verbose
              ? `; not inputs of the sample stage: ${[...at.files.changed.filter((f) => !at.files.ofSample.includes(f)), ...at.notInputs].join(', ') || 'none'}`
              : ''),
        ]
      : []),
  ].join('; ');
}

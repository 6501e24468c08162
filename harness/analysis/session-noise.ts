// Pure: the noise flag calibrated on the host canary (analysis.json `noise`,
// issue 28 item 5). The fixed thresholds of process/host-noise.ts flagged
// every session of every run on the published host kind, because the host's
// own agent (pid 1) takes about 12% of the CPU in every session: a flag that
// is always on says nothing.
//
// A session is noisy when its canary is slower than the run's other sessions
// beyond its interval: for some piece, the lower end of the session's
// interval of the median lies above the median of the other sessions'
// medians, by at least MIN_SLOWDOWN (so a difference of a few tenths of a
// percent between tight intervals is not called noise). That needs a canary
// and 2 sessions or more; otherwise the session is "not judged".
//
// The CPU account says why: the thresholds of process/host-noise.ts
// (steal, other processes, iowait, memory), applied after taking out the
// steady background. A steady background is a process name among the top
// foreign CPU users of every session, at STEADY_MIN_SHARE of the CPU
// capacity or more in each, its largest share at most STEADY_MAX_SPREAD times
// its smallest. It is reported once (the scope line), never as noise of each
// session. The account is shown for quiet sessions too: a session can cross a
// threshold without its canary moving.
import type { CanaryResult } from './canary-statistics.js';
import type { SessionRecord } from '../contract/exchange-files.js';
import { noisySession, type HostNoise } from '../process/host-noise.js';
import { median } from '../stats/quantile.js';

/** The least slowdown of a session's canary piece over the other sessions' median that is called noise. */
export const MIN_SLOWDOWN = 1.05;
/** A steady background process takes at least this share of the CPU capacity in every session. */
export const STEADY_MIN_SHARE = 0.02;
/** ... and its largest share over the sessions is at most this many times its smallest. */
export const STEADY_MAX_SPREAD = 2;

export interface SlowerPiece {
  piece: string;
  /** The session's median over the other sessions' median. */
  ratio: number;
  medianMs: number;
  lowMs: number;
  highMs: number;
  /** The median of the other sessions' medians. */
  othersMs: number;
}

export interface SessionNoiseVerdict {
  session: number;
  /** noisy: the canary was slower beyond its interval; not judged: no canary, or one session. */
  verdict: 'noisy' | 'quiet' | 'not judged';
  /** The canary pieces that were slower beyond their interval (empty unless noisy). */
  slower: SlowerPiece[];
  /** Other processes' share of the CPU capacity, the steady background taken out. */
  otherShare: number;
  /** What the CPU account crossed (process/host-noise.ts thresholds), the steady background taken out; empty: nothing. */
  account: string[];
}

export interface SteadyBackground {
  name: string;
  lowShare: number;
  highShare: number;
  sessions: number;
}

export interface SessionNoiseResult {
  rule: { minSlowdown: number; steadyMinShare: number; steadyMaxSpread: number };
  steady: SteadyBackground[];
  sessions: SessionNoiseVerdict[];
}

const capacityMs = (n: HostNoise): number => n.wallMs * n.cpuCount;

/** The latest attempt's record of each session, in session order. */
function latestRecords(records: readonly SessionRecord[]): SessionRecord[] {
  const latest = new Map<number, SessionRecord>();
  for (const r of records) {
    const had = latest.get(r.session);
    if (!had || r.attempt >= had.attempt) latest.set(r.session, r);
  }
  return [...latest.values()].sort((a, b) => a.session - b.session);
}

/** Names among the top foreign CPU users of every session at a steady share (2 sessions or more). */
export function steadyBackground(records: readonly SessionRecord[]): SteadyBackground[] {
  const latest = latestRecords(records).filter((r) => capacityMs(r.noise) > 0);
  if (latest.length < 2) return [];
  const shares = new Map<string, number[]>();
  for (const r of latest) {
    for (const f of r.noise.topForeign) {
      const list = shares.get(f.name) ?? [];
      list.push(f.cpuMs / capacityMs(r.noise));
      shares.set(f.name, list);
    }
  }
  return [...shares]
    .filter(([, s]) => s.length === latest.length && Math.min(...s) >= STEADY_MIN_SHARE && Math.max(...s) <= STEADY_MAX_SPREAD * Math.min(...s))
    .map(([name, s]) => ({ name, lowShare: Math.min(...s), highShare: Math.max(...s), sessions: s.length }))
    .sort((a, b) => b.highShare - a.highShare || a.name.localeCompare(b.name));
}

/** The session's host noise with the steady background taken out of the other processes' time. */
function withoutSteady(n: HostNoise, steady: ReadonlySet<string>): HostNoise {
  const steadyMs = n.topForeign.filter((f) => steady.has(f.name)).reduce((s, f) => s + f.cpuMs, 0);
  return { ...n, foreignCpuMs: Math.max(0, n.foreignCpuMs - steadyMs), topForeign: n.topForeign.filter((f) => !steady.has(f.name)) };
}

/** The canary pieces of `session` slower than the other sessions' median beyond the session's interval. */
function slowerPieces(canary: CanaryResult, session: number): SlowerPiece[] | null {
  const own = canary.sessions.find((s) => s.session === session);
  const others = canary.sessions.filter((s) => s.session !== session);
  if (!own || others.length === 0) return null;
  const out: SlowerPiece[] = [];
  let judged = false;
  for (const p of own.pieces) {
    const rest = others.flatMap((o) => {
      const m = o.pieces.find((x) => x.piece === p.piece)?.medianMs;
      return typeof m === 'number' ? [m] : [];
    });
    if (p.medianMs === null || p.lowMs === null || p.highMs === null || rest.length === 0) continue;
    judged = true;
    const othersMs = median(rest);
    const ratio = othersMs > 0 ? p.medianMs / othersMs : Infinity;
    if (p.lowMs > othersMs && ratio >= MIN_SLOWDOWN) out.push({ piece: p.piece, ratio, medianMs: p.medianMs, lowMs: p.lowMs, highMs: p.highMs, othersMs });
  }
  return judged ? out : null;
}

/** analysis.json `noise`; null without session records that carry a noise account (an imported run's records may not). */
export function sessionNoise(records: readonly SessionRecord[], canary: CanaryResult | null | undefined): SessionNoiseResult | null {
  const latest = latestRecords(records).filter((r) => r.noise !== undefined && r.noise !== null);
  if (latest.length === 0) return null;
  const steady = steadyBackground(latest);
  const names = new Set(steady.map((s) => s.name));
  const sessions = latest.map((r): SessionNoiseVerdict => {
    const n = withoutSteady(r.noise, names);
    const slower = canary ? slowerPieces(canary, r.session) : null;
    return {
      session: r.session,
      verdict: slower === null ? 'not judged' : slower.length ? 'noisy' : 'quiet',
      slower: slower ?? [],
      otherShare: capacityMs(n) > 0 ? n.foreignCpuMs / capacityMs(n) : 0,
      account: noisySession(n).reasons,
    };
  });
  return { rule: { minSlowdown: MIN_SLOWDOWN, steadyMinShare: STEADY_MIN_SHARE, steadyMaxSpread: STEADY_MAX_SPREAD }, steady, sessions };
}

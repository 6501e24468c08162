// Effects: the untimed wash-out before a timed launch. `sync`, then poll
// /proc/meminfo until Dirty + Writeback falls below the threshold or the
// timeout passes. Page caches stay warm: this waits for writeback, it never
// drops caches. The outcome is journaled with the launch it preceded.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import type { SettleSection } from '../config/pipeline-config.js';
import { dirtyMemoryKb } from '../process/disk-probe.js';

const run = promisify(execFile);

export type SettleSettings = SettleSection;

export interface SettleOutcome {
  /** Time spent settling (sync and waiting); null when settling is off. */
  settleMs: number | null;
  /** Dirty and Writeback at the end of the settle, right before the timed launch. */
  dirtyKb: number | null;
  writebackKb: number | null;
  /** The threshold was not reached within the timeout. */
  timedOut: boolean;
}

function readDirty(): { dirtyKb: number; writebackKb: number } | null {
  try {
    const d = dirtyMemoryKb(readFileSync('/proc/meminfo', 'utf8'));
    return d.dirtyKb === null || d.writebackKb === null ? null : { dirtyKb: d.dirtyKb, writebackKb: d.writebackKb };
  } catch {
    return null;
  }
}

export async function settle(s: SettleSettings, signal?: AbortSignal): Promise<SettleOutcome> {
  if (!s.enabled) {
    const now = readDirty();
    return { settleMs: null, dirtyKb: now?.dirtyKb ?? null, writebackKb: now?.writebackKb ?? null, timedOut: false };
  }
  const t0 = performance.now();
  await run('sync', [], { signal });
  const deadline = t0 + s.timeout_s * 1000;
  let now = readDirty();
  while (now && now.dirtyKb + now.writebackKb >= s.dirty_kb && performance.now() < deadline) {
    if (signal?.aborted) break;
    await new Promise((r) => setTimeout(r, s.poll_ms));
    now = readDirty();
  }
  const timedOut = now !== null && now.dirtyKb + now.writebackKb >= s.dirty_kb;
  return { settleMs: performance.now() - t0, dirtyKb: now?.dirtyKb ?? null, writebackKb: now?.writebackKb ?? null, timedOut };
}

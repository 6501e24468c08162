// Pure: turns the helper's raw facts about a launch into its outcome.

import type { HelperResult, LaunchRequest, LaunchResult, LaunchState } from './launch-types.js';

type Judged = Pick<LaunchRequest, 'marker' | 'timeoutMs' | 'ready'>;

export function launchOutcome(req: Judged, raw: HelperResult): LaunchResult {
  const { state, reason } = judge(req, raw);
  const mode = req.ready ?? 'marker';
  return {
    launchId: raw.launchId,
    state,
    readyMs: mode === 'marker' ? raw.readyMs : mode === 'first-line' ? (raw.firstLineMs ?? null) : null,
    completionMs: state === 'timeout' ? null : raw.completionMs,
    exitCode: raw.exitCode,
    signal: raw.signal,
    userCpuMs: raw.userCpuMs,
    sysCpuMs: raw.sysCpuMs,
    maxRssKb: raw.maxRssKb,
    stdoutTail: raw.stdoutTail,
    stderrTail: raw.stderrTail,
    markerSeen: raw.markerSeen,
    failureReason: reason,
    phases: raw.phases ?? [],
  };
}

/** What a failure reason puts before the launch's last stderr line; reasonLabel (report/conclusions.ts) groups reasons without it. */
export const STDERR_ENDS = '; its stderr ends: ';

/** The last non-empty line of a tail, at most 300 characters. */
function lastLine(tail: string | null | undefined): string | null {
  const line = (tail ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .pop();
  return line ? line.slice(0, 300) : null;
}

function judge(req: Judged, raw: HelperResult): { state: LaunchState; reason: string | null } {
  const mode = req.ready ?? 'marker';
  if (raw.spawnError !== null) return { state: 'failed', reason: raw.spawnError };
  if (raw.timedOut) {
    const seen =
      mode === 'none'
        ? 'Completion only'
        : mode === 'first-line'
          ? raw.firstLineMs != null
            ? `first line at ${raw.firstLineMs.toFixed(1)} ms`
            : 'no stdout line seen'
          : raw.markerSeen && raw.readyMs !== null
            ? `marker seen at ${raw.readyMs.toFixed(1)} ms`
            : 'marker never seen';
    const held = raw.pipesForcedClosed ? '; a process outside its group kept its output open' : '';
    return { state: 'timeout', reason: `timed out after ${req.timeoutMs} ms (${seen}); process group killed${held}` };
  }
  if (raw.signal !== null) return { state: 'failed', reason: `killed by ${raw.signal}` };
  if (mode === 'first-line' && raw.firstLineMs == null) {
    const exit = raw.exitCode === null ? '' : ` (exit code ${raw.exitCode})`;
    return { state: 'failed', reason: `no line appeared on stdout${exit}; Ready is the first stdout line (--ready first-line)` };
  }
  if (mode === 'marker' && !raw.markerSeen) {
    const exit = raw.exitCode === null ? '' : ` (exit code ${raw.exitCode})`;
    // a path that fails says why on stderr (estargz-launch: "… not eStargz …"): its last line travels with the reason
    const said = raw.exitCode ? lastLine(raw.stderrTail) : null;
    return { state: 'failed', reason: `marker line ${JSON.stringify(req.marker)} never appeared on stdout${exit}${said ? `${STDERR_ENDS}${said}` : ''}` };
  }
  return { state: 'ok', reason: null };
}

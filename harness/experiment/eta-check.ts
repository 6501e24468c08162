// The whole-run ETA checked against what happened: each session record keeps
// the ETA its progress line showed last and when (sessionEta, written by the
// sampling stage); after the run, the real remaining time from that moment is
// the end of the run's last session minus it. Pure.
import type { SessionEta, SessionRecord } from '../contract/exchange-files.js';
import type { ShownEstimate } from './run-eta.js';

/** The record's form of an ETA shown at `atMs` (Date.now); null when none was shown or it was not yet a figure. */
export function sessionEta(shown: ShownEstimate | null): SessionEta | null {
  if (!shown || !Number.isFinite(shown.runMs) || !Number.isFinite(shown.sessionMs)) return null;
  return { shownAt: new Date(shown.atMs).toISOString(), runMs: Math.round(shown.runMs), sessionMs: Math.round(shown.sessionMs), upperBound: shown.upperBound };
}

export interface EtaCheck {
  session: number;
  attempt: number;
  shownAt: string;
  /** The run's remaining time the ETA said. */
  etaMs: number;
  /** The run's remaining time it had: the last session's end minus shownAt. */
  realMs: number;
  /** etaMs / realMs (1 is exact; 0.8 says 20% too short); NaN when realMs is 0. */
  ratio: number;
  upperBound: boolean;
}

/** One row per record with an ETA, in session order; the run's end is the latest endedAt of all the records. */
export function etaCheck(records: readonly SessionRecord[]): EtaCheck[] {
  if (records.length === 0) return [];
  const endMs = Math.max(...records.map((r) => Date.parse(r.endedAt)));
  return records
    .filter((r): r is SessionRecord & { eta: SessionEta } => r.eta !== undefined)
    .map((r) => {
      const realMs = endMs - Date.parse(r.eta.shownAt);
      return {
        session: r.session,
        attempt: r.attempt,
        shownAt: r.eta.shownAt,
        etaMs: r.eta.runMs,
        realMs,
        ratio: realMs > 0 ? r.eta.runMs / realMs : Number.NaN,
        upperBound: r.eta.upperBound,
      };
    })
    .sort((a, b) => a.session - b.session || a.attempt - b.attempt);
}

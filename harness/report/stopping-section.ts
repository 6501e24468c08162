// "What stopping saved" (issue 29, design.adaptive): the sample stage's
// adaptive.json beside the launches and minutes this run used, against the
// fixed design of equal power at the band (comparison/operating-characteristics.ts:
// the fewest sessions of the same rounds whose between-session t finds a
// difference of the band as often as this run's rule), and the comparisons
// that ran out of budget. Not against max_sessions sessions: a design the
// budget could not pay for saves nothing by being avoided (issue 42). Minutes of the fixed design are this run's formal minutes
// per formal launch times its launches: an estimate, said as such. Pure, but
// for readAdaptiveRecord, which reads the file from the stage's inputs.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StageInput } from '../contract/stage.js';
import type { SessionRecord } from '../contract/exchange-files.js';
import type { SampleRow } from '../db/sample-row.js';
import { paragraph, section, table, type Section } from '../document/document-model.js';
import type { RunOperatingCharacteristics } from '../comparison/operating-characteristics.js';

/** adaptive.json (experiment/adaptive-plan.ts adaptiveRecord), the part read here. */
export interface AdaptiveRecordFile {
  format: string;
  minSessions: number;
  maxSessions: number;
  /** The boundaries' spending exponent; absent in records written before it could be chosen (1, linear). */
  spendingRho?: number;
  metric: string;
  margin: number;
  /** Absent in records written before the absolute margin and the budgets. */
  minMs?: number;
  sessionsRun: number;
  stopped?: 'decided' | 'max_sessions' | 'max_launches' | 'max_minutes' | null;
  maxLaunches?: number | null;
  maxMinutes?: number | null;
  comparisons: { cohort: string; state: string; a: string; b: string; verdict: string; decided: boolean; sessions: number }[];
}

/** The adaptive.json of the stage's inputs (the sample stage's outputs), or null when the run was not adaptive or its samples were imported. */
export function readAdaptiveRecord(inputs: Record<string, StageInput>): AdaptiveRecordFile | null {
  for (const input of Object.values(inputs)) {
    const file = join(input.outputDir, 'adaptive.json');
    if (!existsSync(file)) continue;
    const record = JSON.parse(readFileSync(file, 'utf8')) as Partial<AdaptiveRecordFile>;
    // import-samples writes only the looks (no sampling, so nothing stopping saved to report)
    return Array.isArray(record.comparisons) ? (record as AdaptiveRecordFile) : null;
  }
  return null;
}

export interface StoppingFigures {
  launches: number;
  fixedLaunches: number;
  minutes: number | null;
  fixedMinutes: number | null;
  undecided: AdaptiveRecordFile['comparisons'];
}

/** Launches and minutes used against a fixed design of `fixedSessions` sessions over every cell, and the comparisons left undecided. */
export function stoppingFigures(
  a: AdaptiveRecordFile,
  launches: readonly SampleRow[],
  sessions: readonly SessionRecord[] | null,
  fixedSessions: number,
): StoppingFigures {
  const formal = launches.filter((r) => r['phase'] === 'formal');
  // A formal launch per (session, unit, arm, condition, round): the fixed design runs every cell of the first session's layout in every session.
  const first = Math.min(...formal.map((r) => Number(r['session'])));
  const perSession = formal.filter((r) => Number(r['session']) === first).length;
  const fixedLaunches = perSession * fixedSessions;
  const spans = (sessions ?? []).map((s) => Date.parse(s.endedAt) - Date.parse(s.startedAt)).filter((ms) => Number.isFinite(ms) && ms >= 0);
  const minutes = spans.length ? spans.reduce((s, v) => s + v, 0) / 60000 : null;
  return {
    launches: formal.length,
    fixedLaunches,
    minutes,
    fixedMinutes: minutes !== null && formal.length ? (minutes * fixedLaunches) / formal.length : null,
    undecided: a.comparisons.filter((c) => c.verdict === 'undecided'),
  };
}

const pct = (part: number, whole: number): string => (whole > 0 ? `${Math.round((100 * part) / whole)}%` : '–');
const min = (v: number | null): string => (v === null ? '–' : v.toFixed(1));

const budgetWords: Record<string, string> = {
  max_sessions: 'max_sessions reached',
  max_launches: 'one more session would pass max_launches',
  max_minutes: 'one more session would pass max_minutes',
};

/** "1 session", "3 sessions". */
const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** The report's "What stopping saved" section; nothing when the run was not adaptive. */
export function stoppingSection(
  a: AdaptiveRecordFile | null,
  launches: readonly SampleRow[],
  sessions: readonly SessionRecord[] | null,
  operating: RunOperatingCharacteristics | null,
): Section[] {
  if (!a || !launches.some((r) => r['phase'] === 'formal')) return [];
  const equal = operating?.equalPowerFixed ?? null;
  const fixedSessions = equal?.sessions ?? a.maxSessions;
  const f = stoppingFigures(a, launches, sessions, fixedSessions);
  const decided = a.comparisons.length - f.undecided.length;
  // the sessions each undecided comparison ran, said once when they are all the same
  const sessionCounts = new Set(f.undecided.map((c) => c.sessions));
  const sameSessions = sessionCounts.size === 1 ? [...sessionCounts][0]! : null;
  return section('What stopping saved', [
    paragraph(
      `\`design.adaptive\` allowed ${a.minSessions} to ${a.maxSessions} sessions${a.maxLaunches ? ` and at most ${a.maxLaunches} formal launches` : ''}${a.maxMinutes ? `, at most ${a.maxMinutes} minutes` : ''} (decided on ${a.metric}): ` +
        `${count(a.sessionsRun, 'session')} ran and ${decided} of ${a.comparisons.length} comparisons were decided. ` +
        (equal
          ? `Beside it, the fixed design of equal power: ${count(fixedSessions, 'session')} of every cell, the fewest of the same rounds whose between-session t finds a band-sized difference as often as this rule (median over the comparisons).`
          : `Against it stands a fixed design of every cell for all ${a.maxSessions} sessions (minutes estimated from this run's per launch); no fixed design of equal power was found.`),
    ),
    table(
      ['', 'this run', `fixed, ${count(fixedSessions, 'session')}${equal ? ', equal power' : ''}`, 'share'],
      [
        ['formal launches', String(f.launches), String(f.fixedLaunches), pct(f.launches, f.fixedLaunches)],
        ['session minutes', min(f.minutes), min(f.fixedMinutes), f.minutes !== null && f.fixedMinutes ? pct(f.minutes, f.fixedMinutes) : '–'],
      ],
    ),
    // which ones: the summary table's "undecided" cells, so not named again here
    f.undecided.length
      ? paragraph(
          `${count(f.undecided.length, 'comparison')} ran out of budget (${budgetWords[a.stopped ?? 'max_sessions'] ?? 'max_sessions'}) and remained undecided${sameSessions !== null ? ` after ${count(sameSessions, 'session')}` : ''}: the summary's "undecided" cells${sameSessions !== null ? '' : ` (${f.undecided.map((c) => `${c.cohort} ${c.state} ${c.a} − ${c.b}: ${count(c.sessions, 'session')}`).join('; ')})`}.`,
        )
      : paragraph('No comparison ran out of budget.'),
  ]);
}

// `pipeline measure --record DIR`: every launch journaled to DIR/samples.duckdb
// with the sample schema (cohort 'measure', path = the command's name), so an
// interrupted measurement resumes at its first incomplete round, and
// DIR/samples.csv, written at the end, is what an `import-samples` stage reads
// to get the full report. DIR/measure.json holds what must not change between
// the sessions of one record (commands, seed, warmup, Ready, and the number of
// rounds once known).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SampleJournal } from '../db/sample-journal.js';
import { outcomeOf, type LaunchMeasures, type SampleRow } from '../db/sample-row.js';
import { UserError } from '../errors.js';
import type { MeasuredCommand } from './command-list.js';
import type { Observation } from './observation.js';
import { samplesCsv } from '../db/samples-csv.js';

export const RECORD_COHORT = 'measure';

export interface RecordIdentity {
  commands: { name: string; argv: string[] }[];
  seed: string;
  warmup: number;
  ready: string;
  marker: string | null;
  /** --concurrency N, when above 1 (absent otherwise, so a record made before it resumes). */
  concurrency?: number;
}

interface RecordFile {
  identity: RecordIdentity;
  rounds: number | null;
}

export class MeasureRecord {
  private constructor(
    readonly dir: string,
    private readonly journal: SampleJournal,
    private file: RecordFile,
    /** This attempt's number (launch ids end in .a<attempt>). */
    readonly session: number,
    /** Formal observations of complete rounds from earlier sessions. */
    readonly earlier: Observation[],
    private readonly commands: readonly MeasuredCommand[],
  ) {}

  static async open(dir: string, identity: RecordIdentity, commands: readonly MeasuredCommand[]): Promise<MeasureRecord> {
    mkdirSync(dir, { recursive: true });
    const metaFile = join(dir, 'measure.json');
    let file: RecordFile = { identity, rounds: null };
    if (existsSync(metaFile)) {
      const old = JSON.parse(readFileSync(metaFile, 'utf8')) as RecordFile;
      if (JSON.stringify(old.identity) !== JSON.stringify(identity)) {
        throw new UserError(
          `${dir} records a different measurement (${describeChange(old.identity, identity)})`,
          { key: '--record' },
          'give a new folder, or the same commands, --seed, --warmup and Ready as before to resume',
        );
      }
      file = old;
    } else {
      writeFileSync(metaFile, JSON.stringify(file, null, 2) + '\n');
    }
    const journal = await SampleJournal.open(join(dir, 'samples.duckdb'));
    // a complete round has every command's launch, each a burst of N copies with --concurrency N
    const n = commands.length * (identity.concurrency ?? 1);
    const formal = (await journal.formalRows()).filter((r) => r.cohort === RECORD_COHORT);
    const perRound = new Map<number, number>();
    for (const r of formal) perRound.set(r.round, (perRound.get(r.round) ?? 0) + 1);
    const incomplete = [...perRound].filter(([, k]) => k < n).map(([r]) => r);
    await journal.discardRounds(1, RECORD_COHORT, incomplete);
    const session = (await journal.lastAttempt()) + 1;
    const earlier = (await journal.rows()).filter((r) => r['phase'] === 'formal').map((r) => observationOfRow(r, commands));
    return new MeasureRecord(dir, journal, file, session, earlier, commands);
  }

  /** Rounds fixed by an earlier session, if any. */
  get rounds(): number | null {
    return this.file.rounds;
  }

  setRounds(rounds: number): void {
    this.file = { ...this.file, rounds };
    writeFileSync(join(this.dir, 'measure.json'), JSON.stringify(this.file, null, 2) + '\n');
  }

  /** Journals the launches of one round (a round is the unit a resume keeps or discards). */
  async append(observations: readonly Observation[]): Promise<void> {
    for (const o of observations) await this.journal.append(rowOf(o, this.commands));
  }

  /** Writes DIR/samples.csv (every row, for import-samples) and closes the journal. */
  async finish(): Promise<string> {
    const rows = await this.journal.rows();
    const csv = join(this.dir, 'samples.csv');
    writeFileSync(csv, samplesCsv(rows, [], { allColumns: true }));
    await this.close();
    return csv;
  }

  async close(): Promise<void> {
    await this.journal.close();
  }
}

function describeChange(a: RecordIdentity, b: RecordIdentity): string {
  const keys = (Object.keys(b) as (keyof RecordIdentity)[]).filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
  return `${keys.join(', ')} differ`;
}

/** Pure: the sample row of an observation. */
export function rowOf(o: Observation, commands: readonly MeasuredCommand[]): SampleRow {
  return {
    experiment: 'measure',
    cohort: RECORD_COHORT,
    path: commands[o.command]!.name,
    state: 'cold',
    phase: o.phase,
    round: o.round,
    order_in_round: o.orderInRound,
    launch_id: o.launchId,
    // The journal's defaults, said here: a measurement is one session, and its rows name no host.
    session: 1,
    host: 'unknown',
    ready_ms: o.readyMs,
    completion_ms: o.completionMs,
    content_bytes: null,
    response_bytes: null,
    exit_code: o.exitCode,
    signal: o.signal,
    ...outcomeOf(o.ok, o.failureReason),
    started_at: o.startedAt,
    user_cpu_ms: o.userCpuMs,
    sys_cpu_ms: o.sysCpuMs,
    max_rss_kb: o.maxRssKb,
  };
}

/** Pure: the observation of a recorded row; the command is the `.c<index>` of its launch id. */
export function observationOfRow(r: SampleRow, commands: readonly MeasuredCommand[]): Observation {
  const index = Number(/\.c(\d+)\./.exec(String(r['launch_id']))?.[1] ?? -1);
  if (!(index >= 0 && index < commands.length)) throw new Error(`recorded launch ${String(r['launch_id'])} names no command of this measurement`);
  const num = (k: keyof LaunchMeasures): number | null => (r[k] === null || r[k] === undefined ? null : Number(r[k]));
  return {
    command: index,
    phase: r['phase'] as Observation['phase'],
    round: Number(r['round']),
    orderInRound: Number(r['order_in_round']),
    launchId: String(r['launch_id']),
    ok: r['ok'] === true,
    readyMs: num('ready_ms'),
    completionMs: num('completion_ms'),
    exitCode: num('exit_code'),
    signal: (r['signal'] as string | null) ?? null,
    failureReason: (r['failure_reason'] as string | null) ?? null,
    userCpuMs: num('user_cpu_ms'),
    sysCpuMs: num('sys_cpu_ms'),
    maxRssKb: num('max_rss_kb'),
    startedAt: String(r['started_at']),
  };
}

// Pure: parsers of what squeue and scontrol print about jobs.

export interface QueueRow {
  jobId: string;
  slurmState: string;
  node: string | null;
  reason: string | null;
}

/** The squeue format these rows are parsed from. */
export const SQUEUE_FORMAT = '%i|%T|%N|%r';

export function parseQueueRows(stdout: string): QueueRow[] {
  return stdout
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => {
      const [jobId = '', slurmState = '', node = '', reason = ''] = l.split('|');
      return { jobId, slurmState, node: node.trim() || null, reason: reasonOf(reason) };
    });
}

const reasonOf = (r: string): string | null => (r.trim() && r.trim() !== 'None' ? r.trim().replace(/^\(|\)$/g, '') : null);

/** `scontrol show job -o ID`: one line of Key=Value pairs; values may hold spaces. */
export function parseScontrolJob(line: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /(?:^|\s)([A-Za-z][A-Za-z0-9_:/]*)=/g;
  const marks: { key: string; at: number; valueAt: number }[] = [];
  for (const m of line.trim().matchAll(re)) marks.push({ key: m[1]!, at: m.index!, valueAt: m.index! + m[0].length });
  const text = line.trim();
  marks.forEach((m, i) => {
    out[m.key] = text.slice(m.valueAt, i + 1 < marks.length ? marks[i + 1]!.at : text.length).trim();
  });
  return out;
}

export interface JobDetail {
  slurmState: string;
  node: string | null;
  exitCode: number | null;
  signal: number | null;
  reason: string | null;
  /** Slurm's StartTime (local time, whole seconds) as epoch ms, or null. */
  startTimeMs: number | null;
}

export function jobDetailOf(fields: Record<string, string>): JobDetail {
  const [code, sig] = (fields.ExitCode ?? '').split(':').map((s) => Number(s));
  const signal = Number.isInteger(sig) && sig! > 0 ? sig! : null;
  const node = fields.NodeList && fields.NodeList !== '(null)' ? fields.NodeList : null;
  return {
    slurmState: fields.JobState ?? 'UNKNOWN',
    node,
    exitCode: signal === null && Number.isInteger(code) ? code! : null,
    signal,
    reason: fields.Reason && fields.Reason !== 'None' ? fields.Reason : null,
    startTimeMs: slurmTimeMs(fields.StartTime),
  };
}

/** "2026-11-30T20:04:09" (the controller's local time) to epoch ms; Unknown/None/N/A to null. */
export function slurmTimeMs(value: string | undefined): number | null {
  if (!value || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/.test(value)) return null;
  const ms = new Date(value).getTime();
  return Number.isFinite(ms) ? ms : null;
}

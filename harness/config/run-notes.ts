// Pure: the report.notes a report renders with the samples at hand. A note
// tied to one run (`sample_output`) says how that run was sampled: when, in
// which checkout, how quiet the machine was. Rendered from other samples (a
// newcomer's rerun of the pipeline, a replicate) it would claim another run's
// time and commit as its own, so it is left out, and one sentence says so and
// where this run's own times are (samples.csv, every experiment publishes it).
import type { ReportNote } from './report-options.js';

/** The notes' paragraphs for a report of the samples whose sample stage output digest is `sampleOutput` (null: unknown, every tied note is left out). */
export function notesForRun(notes: readonly ReportNote[], sampleOutput: string | null): string[] {
  const applies = (n: ReportNote): boolean => n.sampleOutput === null || (sampleOutput !== null && sampleOutput.toLowerCase().startsWith(n.sampleOutput));
  const left = notes.filter((n) => !applies(n));
  const kept = notes.filter(applies).map((n) => n.text);
  if (!left.length) return kept;
  const about = [...new Set(left.map((n) => `\`${n.sampleOutput!.slice(0, 12)}\``))].join(', ');
  const these = sampleOutput ? `the samples of sample output \`${sampleOutput.slice(0, 12)}\`` : 'samples whose sample stage output is not known';
  return [
    ...kept,
    `${left.length === 1 ? 'One note' : `${left.length} notes`} of the pipeline file about the run of sample output ${about} (how and when it was sampled) ${left.length === 1 ? 'is' : 'are'} left out: this report renders ${these}, and when each of its launches started is in samples.csv (started_at).`,
  ];
}

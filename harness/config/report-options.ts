// The `report:` section of pipeline.yaml (schemas/report.schema.json holds the
// keys, descriptions and defaults; they are applied here again for tests).
// report.source (stand-ins, findings not comparable) is read by the analysis
// too, which judges the source findings (analysis/source-verdicts.ts).
import { sourceReading, type SourceReading } from './source-reading.js';

function pathNotes(raw: unknown): Record<string, PathNotes> {
  const out: Record<string, PathNotes> = {};
  if (!raw || typeof raw !== 'object') return out;
  for (const [id, v] of Object.entries(raw as Record<string, Record<string, unknown>>)) {
    out[id] = {
      confounds: Array.isArray(v?.['confounds']) ? (v['confounds'] as unknown[]).map(String) : [],
      content: typeof v?.['content'] === 'string' ? (v['content'] as string) : null,
      stack: typeof v?.['stack'] === 'string' ? (v['stack'] as string) : null,
      reads: typeof v?.['reads'] === 'string' ? (v['reads'] as string) : null,
      pull: v?.['pull'] === 'full' || v?.['pull'] === 'on-demand' ? v['pull'] : null,
    };
  }
  return out;
}

/** What the report says about a path: its confounds, its content-bytes note, its runtime stack and how it reads an image. */
export interface PathNotes {
  confounds: string[];
  content: string | null;
  stack: string | null;
  /** How the path reads the image, as a table labels it (image-reads: "64 KiB", "eStargz + prefetch"); null: from its read size. */
  reads: string | null;
  /** Whether the image is pulled whole before the start, or read on demand; null: not said. */
  pull: 'full' | 'on-demand' | null;
}

export interface ReportOptions {
  /** Report title; default: experiment.question. */
  title: string | null;
  /** Render the SVG plots. */
  plots: boolean;
  /** Decimals of milliseconds in report.md (CSV files keep 3). */
  msDecimals: number;
  /** Decimals of seconds (preparation costs) in report.md. */
  secondsDecimals: number;
  /** Decimals of percentages in report.md. */
  percentDecimals: number;
  /** Extra paragraphs appended to Data and analysis (what a reader must know that the data cannot say); a note tied to one run's samples is rendered only with them (config/run-notes.ts). */
  notes: ReportNote[];
  /** One sentence of scope before the conclusions; null: generated from the host facts. */
  scope: string | null;
  /** What a reader must know about each path: confounds, what its content bytes are, its runtime stack. */
  paths: Record<string, PathNotes>;
  /** report.source: how the source's findings are read against this run. */
  source: SourceReading;
  /** The instrument's measured error rates and costs on a host of this kind, with the date (quoted by the method section); null: none. */
  calibration: string | null;
  /** What carries over from one launch to the next on a host of this kind, measured apart, with the date (quoted by the carryover section); null: none. */
  carryover: string | null;
  /** The comparisons (a − b of paths) whose verdicts answer the question in the report's first sentence; empty: the first comparison configured. */
  answer: { a: string; b: string }[];
}

/** The key of pipeline.yaml each typed field is read from (as analysisRuleKeys). */
export const reportOptionKeys: Readonly<Record<keyof ReportOptions, string>> = {
  title: 'report.title',
  plots: 'report.plots',
  msDecimals: 'report.ms_decimals',
  secondsDecimals: 'report.seconds_decimals',
  percentDecimals: 'report.percent_decimals',
  notes: 'report.notes',
  scope: 'report.scope',
  paths: 'report.paths',
  source: 'report.source',
  calibration: 'report.calibration',
  carryover: 'report.carryover',
  answer: 'report.answer',
};

export function reportOptions(sectionIn: unknown): ReportOptions {
  const s = (sectionIn && typeof sectionIn === 'object' ? sectionIn : {}) as Record<string, unknown>;
  const int = (k: string, d: number): number => (typeof s[k] === 'number' ? Math.max(0, Math.min(6, Math.floor(s[k] as number))) : d);
  return {
    title: typeof s['title'] === 'string' && s['title'] !== '' ? (s['title'] as string) : null,
    plots: s['plots'] !== false,
    msDecimals: int('ms_decimals', 1),
    secondsDecimals: int('seconds_decimals', 3),
    percentDecimals: int('percent_decimals', 1),
    notes: Array.isArray(s['notes']) ? (s['notes'] as unknown[]).map(reportNote) : [],
    scope: typeof s['scope'] === 'string' && s['scope'] !== '' ? (s['scope'] as string) : null,
    paths: pathNotes(s['paths']),
    source: sourceReading(s['source']),
    calibration: typeof s['calibration'] === 'string' && s['calibration'] !== '' ? (s['calibration'] as string) : null,
    carryover: typeof s['carryover'] === 'string' && s['carryover'] !== '' ? (s['carryover'] as string) : null,
    answer: Array.isArray(s['answer']) ? (s['answer'] as { a: unknown; b: unknown }[]).map((x) => ({ a: String(x?.a), b: String(x?.b) })) : [],
  };
}

/** A paragraph of report.notes. `sampleOutput` (report.notes[].sample_output): the sample stage output digest, or its first 12 or more hex digits, of the run the note was written about; null: the note is about the experiment, true of every run. */
export interface ReportNote {
  text: string;
  sampleOutput: string | null;
}

function reportNote(v: unknown): ReportNote {
  if (v && typeof v === 'object') {
    const o = v as { text?: unknown; sample_output?: unknown };
    return { text: String(o.text ?? ''), sampleOutput: typeof o.sample_output === 'string' ? o.sample_output.toLowerCase() : null };
  }
  return { text: String(v), sampleOutput: null };
}


// The analysis and report sections typed once, when the pipeline file loads:
// `rules` (analysis-rules.ts) and `reportOptions` (report-options.ts). Every
// stage reads these instead of parsing its own part of a section. A value the
// schema lets through but the typing refuses is an error here, with the file,
// line and key, so `--dry-run` reports it before anything runs.
import { UserError } from '../errors.js';
import { analysisRules, type AnalysisRules } from './analysis-rules.js';
import { reportOptions, type ReportOptions } from './report-options.js';
import { positionOf, type YamlSource } from './yaml-source.js';

export interface TypedSections {
  rules: AnalysisRules;
  reportOptions: ReportOptions;
}

/** 'analysis.comparisons[0].factor' -> ['analysis', 'comparisons', 0, 'factor']. */
export function keyPath(key: string): (string | number)[] {
  return key.split('.').flatMap((part) => {
    const m = /^([^[]*)((?:\[\d+\])*)$/.exec(part);
    if (!m) return [part];
    const indices = [...m[2]!.matchAll(/\[(\d+)\]/g)].map((i) => Number(i[1]));
    return [...(m[1] ? [m[1]] : []), ...indices];
  });
}

/** The typed sections of a config's analysis and report sections as written. */
export function sectionsOf(value: { analysis?: unknown; report?: unknown }): TypedSections {
  return { rules: analysisRules(value.analysis), reportOptions: reportOptions(value.report) };
}

export function typedSections(src: YamlSource, value: Record<string, unknown>): TypedSections {
  try {
    return sectionsOf(value);
  } catch (e) {
    if (!(e instanceof UserError) || !e.place.key || e.place.line) throw e;
    const pos = positionOf(src, keyPath(e.place.key));
    throw new UserError(e.message, { file: src.file, line: pos.line, col: pos.col, key: e.place.key }, e.hint);
  }
}

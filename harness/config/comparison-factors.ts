// The factors a comparison can vary (analysis.comparisons[].factor), the other
// two held fixed: the arm (a path; the default), the unit (a cohort, e.g. an
// image) or the condition (a state, cold or warm). The config names their
// levels in `paths`, `cohorts` and `design.states`; the files call them the
// `path`, `cohort` and `state` columns.
export type ComparisonFactor = 'arm' | 'unit' | 'condition';
export const comparisonFactors: readonly ComparisonFactor[] = ['arm', 'unit', 'condition'];

/** A level of each factor, as the config names it. */
export const levelWord: Record<ComparisonFactor, string> = { arm: 'path', unit: 'cohort', condition: 'state' };

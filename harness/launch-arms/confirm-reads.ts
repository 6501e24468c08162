// The config keys the confirmation session reads beyond the sample stage's
// own: declared in the stage's reads (hashed only with design.confirm on). A
// module of its own so the stage's definition loads without the confirmation code.
export const confirmReads = ['analysis.comparisons', 'analysis.metrics', 'analysis.bootstrap'] as const;

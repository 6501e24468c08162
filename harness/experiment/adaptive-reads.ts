// What a sample stage hashes for design.adaptive besides the design: the
// analysis's margin and comparisons, which the sampling stops by
// (adaptive-plan.ts). Pure. With design.adaptive off they are dropped from
// the key, so a stage that does not sample until decided keeps the key it had
// and a new analysis margin reruns only analyze and report.

/** The config keys design.adaptive decides with; each sample stage reads them. */
export const adaptiveReads = ['analysis.practical', 'analysis.comparisons'] as const;

const isOn = (design: unknown): boolean => {
  const a = (design as Record<string, unknown> | null | undefined)?.['adaptive'];
  return a !== undefined && a !== null && a !== false;
};

/**
 * Pure: a sample stage's config slice for its key. design.adaptive off: without adaptiveReads. On: with
 * analysis.comparisons cut to those of arms (a comparison along a unit or condition changes no sampling).
 */
export function adaptiveKeySlice(slice: Record<string, unknown>): Record<string, unknown> {
  const design = slice['design'] ?? (slice['design.adaptive'] === undefined ? undefined : { adaptive: slice['design.adaptive'] });
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(slice)) if (!(adaptiveReads as readonly string[]).includes(k)) out[k] = v;
  if (!isOn(design)) return out;
  out['analysis.practical'] = slice['analysis.practical'];
  const listed = slice['analysis.comparisons'];
  out['analysis.comparisons'] = Array.isArray(listed)
    ? listed.filter((c) => {
        const factor = (c as { factor?: unknown } | null)?.factor;
        return factor === undefined || factor === 'arm';
      })
    : listed;
  return out;
}

// Pure: which diff the overlay2 driver of an engine uses, from `docker info`.
export type DiffMethod = 'naive' | 'native';

/** Expected "Native Overlay Diff" of each method. */
export const NATIVE_DIFF_OF: Record<DiffMethod, boolean> = { naive: false, native: true };

/** `docker info --format '{{json .}}'` -> storage driver and Native Overlay Diff (null when absent). */
export function parseDiffMode(infoJson: string): { driver: string; nativeDiff: boolean | null } {
  const info = JSON.parse(infoJson) as { Driver?: string; DriverStatus?: [string, string][] };
  const entry = (info.DriverStatus ?? []).find(([k]) => k === 'Native Overlay Diff');
  return { driver: info.Driver ?? '', nativeDiff: entry ? entry[1] === 'true' : null };
}

/** Pure: null when the engine is what the method needs, else what is wrong. */
export function diffModeProblem(method: DiffMethod, mode: { driver: string; nativeDiff: boolean | null }): string | null {
  if (mode.driver !== 'overlay2') return `the ${method} engine uses storage driver '${mode.driver}', not overlay2`;
  const want = NATIVE_DIFF_OF[method];
  if (mode.nativeDiff !== want) {
    return `the ${method} engine reports "Native Overlay Diff: ${mode.nativeDiff}" in docker info; the experiment needs ${want}`;
  }
  return null;
}

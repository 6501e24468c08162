// Pure: the unique marker line of a launch. Ready is matched on a whole line
// equal to the marker, so the marker of another launch (even one whose id
// starts with this one's) never counts.

export const MARKER_PREFIX = 'BENCHGRAPH-READY-';

export function makeMarker(launchId: string): string {
  if (!/^[A-Za-z0-9._-]+$/.test(launchId)) {
    throw new Error(`launch id ${JSON.stringify(launchId)} must be letters, digits, '.', '_' or '-'`);
  }
  return MARKER_PREFIX + launchId;
}

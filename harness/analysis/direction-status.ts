// Pure: the one vocabulary of a conclusion's direction against a reference
// (a baseline run in `compare` and `history`, the source report in a report's
// source table), defined once in docs/VERDICTS.md:
//   held     the same direction in both (both "no difference" included);
//   changed  opposite directions, both detected;
//   lost     detected in the reference, not here;
//   gained   not detected in the reference, detected here.
// A direction is the sign of a detected effect (a − b, or a / b against 1);
// 0 when not detected.

export type DirectionStatus = 'held' | 'changed' | 'lost' | 'gained';

export function directionStatus(reference: -1 | 0 | 1, here: -1 | 0 | 1): DirectionStatus {
  if (reference === here) return 'held';
  if (reference !== 0 && here !== 0) return 'changed';
  return reference !== 0 ? 'lost' : 'gained';
}

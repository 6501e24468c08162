// Pure: the not-runnable rows grouped by each part they lack, so that a
// reason shared by many rows (Firecracker's, KVM's) is stated once, with its
// rows listed.
// A requirement is worded by its id where every report must say the same
// (KVM), else by the doctor's own words from requirements.json.
import { KVM_UNAVAILABLE } from '../publish/host-wording.js';
import type { NotRunnableRow } from './effect-table-md.js';

import type { Requirement } from '../contract/requirement.js';

export interface NotRunnableGroup {
  /** The reason, worded once. */
  reason: string;
  rows: NotRunnableRow[];
}

const WORDING: Record<string, string> = {
  kvm: KVM_UNAVAILABLE,
  firecracker: 'firecracker is not installed (it has no Debian package)',
};

export function requirementWording(r: Requirement): string {
  // The scope line names the runsc release once; the doctor's details repeat it.
  return WORDING[r.id] ?? `${r.part}: ${r.detail}`.replace(/runsc version \S+/g, 'this runsc');
}

/** One group per unmet requirement (a row lacking two parts is listed under both), in first-seen order. */
export function notRunnableGroups(rows: readonly NotRunnableRow[], requirements: readonly Requirement[]): NotRunnableGroup[] {
  const groups = new Map<string, NotRunnableGroup>();
  const add = (reason: string, r: NotRunnableRow): void => {
    const g = groups.get(reason) ?? { reason, rows: [] };
    g.rows.push(r);
    groups.set(reason, g);
  };
  for (const r of rows) {
    const unmet = r.row.requires.map((id) => requirements.find((q) => q.id === id)).filter((q): q is Requirement => !!q && !q.met);
    if (unmet.length) for (const q of unmet) add(requirementWording(q), r);
    else add(r.reasons.join('; '), r);
  }
  return [...groups.values()];
}

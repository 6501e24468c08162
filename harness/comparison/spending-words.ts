// Pure prose: how a sequential plan spends its error rate over the looks, as
// the plan check and the reports' operating characteristics name it; nothing
// for the linear spending every plan had before it could be chosen.
import type { SequentialPlan } from '../stats/sequential-session-interval.js';

export function spendingWords(plan: SequentialPlan): string {
  const s = plan.spending;
  if (s.kind === 'power') return s.rho === 1 ? '' : `, spending alpha·(k/${plan.maxSessions})^${s.rho} by look k`;
  return `, ${s.kind === 'pocock' ? 'Pocock' : "O'Brien–Fleming"} spending`;
}

// The files of a report stage's `with.previous_run` that join its key (its
// inputFiles): light, so that planning a run (status, a no-op rerun) loads
// nothing of the comparison (previous-run-param.ts reads them).

/** What of the previous run is read: its comparison files and run.json (its canary). */
const READ = ['differences.csv', 'statistics.csv', 'sessions.csv', 'disk.csv', 'run.json'];

/** The folder `with.previous_run` names, or null. */
export const givenPreviousRun = (params: Record<string, unknown>): string | null =>
  typeof params['previous_run'] === 'string' && params['previous_run'] ? params['previous_run'] : null;

/** For a stage's inputFiles: the previous run's files, so that another previous run renders again. */
export function previousRunFiles(params: Record<string, unknown>): string[] {
  const given = givenPreviousRun(params);
  return given ? READ.map((f) => `${given.replace(/\/+$/, '')}/${f}`) : [];
}

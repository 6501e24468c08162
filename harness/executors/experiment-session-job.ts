// The job side of every stage: rebuilds the stage's arm adapter from its kind
// (experiment/adapter-registry.ts; the CLI has loaded the stage's module,
// which registers it), starts the stage's services on this node when the
// adapter uses them (after its host check), runs exactly the session the
// spec names into the session's own DuckDB file, and returns its record. The
// adapter reads back the stage's rows as they were at submission plus the
// session's own (e.g. compression rounds already done).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { noServices } from '../contract/running-services.js';
import type { SessionRecord } from '../contract/exchange-files.js';
import type { SampleRow } from '../db/sample-row.js';
import { SampleJournal } from '../db/sample-journal.js';
import { CheckFailed } from '../errors.js';
import { adapterFactoryOf, withAdapter } from '../experiment/adapter-registry.js';
import { sampleOneSession } from '../experiment/sample-experiment.js';
import { hostName } from '../process/host-name.js';
import { startServiceSession } from '../services/service-session.js';
import { sessionJobContext, type SessionJobSpec } from './session-job-spec.js';

export async function runExperimentSessionJob(spec: SessionJobSpec, journalFile: string, log: (line: string) => void): Promise<SessionRecord> {
  const kind = spec.kind ?? 'sample';
  const factory = adapterFactoryOf(kind);
  if (!factory) throw new Error(`stage kind ${kind} registers no arm adapter (experiment/adapter-registry.ts): it cannot run as a session job`);
  const runDir = join(spec.dataDir, 'run', `session-job-S${spec.session}-${process.pid}`);
  mkdirSync(runDir, { recursive: true });
  const ctx = sessionJobContext(spec, { kind, params: spec.params ?? {}, runDir, services: noServices, log });
  const prior: SampleRow[] = spec.priorRows ? await SampleJournal.readRows(spec.priorRows) : [];
  return withAdapter(factory, ctx, async (adapter) => {
    // A node that cannot run a unit the runner planned (an unmet requirement) fails before it starts anything.
    const missing = spec.work.cohorts.map((c) => c.cohort).filter((u) => !adapter.units.includes(u));
    if (missing.length)
      throw new CheckFailed(`${hostName()} cannot run unit(s) of session ${spec.session}: ${missing.join(', ')}`, [
        `units here: ${adapter.units.join(', ') || 'none'}`,
      ]);
    adapter.checkHost?.();
    const services = adapter.services ? await startServiceSession(spec.config, (stageId) => spec.inputs[stageId]?.outputDir ?? null, runDir, log) : null;
    try {
      const journal = await SampleJournal.open(journalFile, adapter.columns ?? []);
      try {
        return await sampleOneSession(
          ctx,
          adapter,
          {
            append: (row, phases) => journal.append(row, phases ?? []),
            rows: async () => [...prior, ...(await journal.rows())],
            markFailed: (ids, reason) => journal.markFailed(ids, reason),
          },
          spec.work,
          spec.attempt,
          { last: spec.last ?? false, fresh: spec.preflight, services: services?.services ?? noServices, ...(spec.arms ? { arms: spec.arms } : {}) },
        );
      } finally {
        await journal.close();
      }
    } finally {
      await services?.stop();
    }
  });
}

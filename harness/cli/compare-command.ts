// `pipeline compare BASELINE CANDIDATE [--json] [--write FOLDER]`: hold a
// reproduction's published report against a published report. Thin: parses
// its own flags (self-contained), calls harness/compare, prints. Exit 0 when
// no conclusion changed or was lost, 1 when one did (named on stderr), 2 on a
// user error (a missing folder, CSV or column, named).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CheckFailed, UserError } from '../errors.js';
import type { CliCommand } from './cli-command.js';
import { compareReports, comparisonJson, conclusionLabel, directionLabel } from '../compare/compare-reports.js';
import { folderFingerprint } from '../compare/folder-fingerprint.js';
import { hostCause, hostDifference, hostLine } from '../compare/host-difference.js';
import { readPublishedReport } from '../compare/read-published-report.js';
import { renderComparisonText, renderReproductionMd } from '../compare/render-comparison.js';
import { runIdentity } from '../compare/run-identity.js';

const USAGE = 'pipeline compare BASELINE CANDIDATE [--json] [--write FOLDER] [--ca FILE]';

/** A folder as given, or a remote run (REF@RUN) fetched into a temporary folder (harness/store/). */
async function folderOf(arg: string, caFile: string | null, key: string): Promise<string> {
  if (existsSync(arg)) return arg;
  const { looksLikeRegistryRef } = await import('../store/registry-ref.js');
  if (!looksLikeRegistryRef(arg)) return arg;
  return (await import('../store/remote-report.js')).remoteReportFolder(arg, caFile, key);
}

export const compareCommand: CliCommand = {
  summary: 'hold a report folder against a published one: which conclusions held in direction and in magnitude, changed, were lost or gained',
  usage: USAGE,
  about:
    'Reads differences.csv and statistics.csv of two published report folders (no raw samples needed), or of\ntwo runs in a registry (REF@RUN, as `pipeline push` printed them; fetched and checked, no local copy kept),\nand their host fingerprints (archived runs) or provenance.csv host rows, and names a host difference\nas a possible cause when a conclusion is lost or changed. Magnitude is judged on each effect after the\nfactor every cell shares, said once.\nExit 0 when no conclusion changed or was lost, 1 when one did (named), 2 on a missing folder or CSV.',
  flags: {
    json: {
      kind: 'boolean',
      help: 'print JSON: {"conclusions":[...],"held":N,"changed":N,"lost":N,"gained":N,"unmatched":N,"heldInMagnitude":N,"heldInBoth":N,"factor":{"ratio","low","high","cells","exact"},"canary":{"ratio","pieces","missing"},"host":{...}}',
    },
    write: { kind: 'string', value: 'FOLDER', help: 'also write FOLDER/reproduction.md' },
    ca: { kind: 'string', value: 'FILE', help: 'CA file of the registry a REF@RUN argument names (or $BENCHGRAPH_REGISTRY_CA)' },
  },
  positionals: true,
  run: async ({ flags, positional }) => {
    if (positional.length !== 2) throw new UserError(`expected two report folders, got ${positional.length}`, { key: 'compare' }, `usage: ${USAGE}`);
    const opts = {
      baseline: await folderOf(positional[0]!, typeof flags['ca'] === 'string' ? flags['ca'] : null, 'BASELINE'),
      candidate: await folderOf(positional[1]!, typeof flags['ca'] === 'string' ? flags['ca'] : null, 'CANDIDATE'),
      json: flags['json'] === true,
      write: typeof flags['write'] === 'string' ? flags['write'] : null,
    };
    const baseline = readPublishedReport(opts.baseline);
    const candidate = readPublishedReport(opts.candidate);
    const result = compareReports(baseline, candidate);
    const host = hostDifference(folderFingerprint(opts.baseline), folderFingerprint(opts.candidate));
    const bad = result.conclusions.filter((c) => c.status === 'changed' || c.status === 'lost');
    const cause = bad.length ? hostCause(host) : null;
    if (opts.write !== null) {
      mkdirSync(opts.write, { recursive: true });
      writeFileSync(
        join(opts.write, 'reproduction.md'),
        renderReproductionMd(result, opts.baseline, opts.candidate, host, { baseline: runIdentity(opts.baseline), candidate: runIdentity(opts.candidate) }),
      );
    }
    process.stdout.write(
      opts.json
        ? JSON.stringify({ ...comparisonJson(result), host }) + '\n'
        : renderComparisonText(result) + hostLine(host) + '\n' + (cause ? cause + '\n' : ''),
    );
    if (bad.length) {
      throw new CheckFailed(`${bad.length} of ${result.conclusions.length} conclusions changed or were lost`, [
        ...bad.map(
          (c) =>
            `${c.status}: ${conclusionLabel(c)} (${directionLabel(c.baseline, c.a, c.b, c.baselineVerdict)} → ${directionLabel(c.candidate, c.a, c.b, c.candidateVerdict)})`,
        ),
        ...(cause ? [cause] : []),
      ]);
    }
    return 0;
  },
};

// `pipeline doctor`: lists each requirement of the real paths (binaries,
// kernel file systems, /dev/fuse, root) as met or not, with the command that
// installs what is missing, then host settings known to add noise (warnings
// with remedies). Exit code 0 when all requirements are met, 1 otherwise.
// With -f FILE, only what that pipeline's paths, services and images use.
import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { dataFilesystem, deletionCarryoverRisk } from '../process/data-filesystem.js';
import { DEBIAN_PACKAGES } from '../artifacts/binary-pins.js';
import { requirements } from '../artifacts/host-requirements.js';
import type { CliCommand } from './cli-command.js';
import { readHostFingerprint } from '../process/host-fingerprint.js';
import { noiseWarnings } from '../process/noise-warnings.js';
import { sandboxRequirements } from '../sandbox/sandbox-requirements.js';

export const doctorCommand: CliCommand = {
  summary: 'list requirements of the real paths and whether they are met',
  usage: 'pipeline doctor [-f FILE] [--quiet]',
  about:
    'Lists each requirement of the real paths (binaries, kernel file systems, /dev/fuse, root) as met\nor not, with the command that installs what is missing. Exit 0 when all are met, 1 otherwise.\nWith -f FILE, only the requirements of what that pipeline uses (its paths, services and images).',
  flags: {
    file: { kind: 'string', short: 'f', value: 'FILE', help: 'list only what this pipeline file uses' },
    quiet: { kind: 'boolean', help: 'do not print the apt-get line of the missing packages' },
  },
  run: async ({ flags }) => {
    const pipeline = await pipelineParts(flags['file']);
    const reqs = pipeline ? pipeline.requirementsOf(requirements()) : requirements();
    if (pipeline) process.stdout.write(`requirements of ${pipeline.shown} (what its paths, services and images use):\n`);
    const width = Math.max(...reqs.map((r) => r.part.length));
    for (const r of reqs) {
      process.stdout.write(`${r.met ? 'ok     ' : 'MISSING'} ${r.part.padEnd(width)}  ${r.detail}${r.met || !r.remedy ? '' : `  -> ${r.remedy}`}\n`);
    }
    // Parts of effect rows: informational; a row missing one is reported as not runnable, never an error.
    if (!pipeline || pipeline.effects) {
      process.stdout.write(
        pipeline
          ? `\nsandbox parts its sample stage checks when it runs (it needs some of these; a missing one it needs stops it, or makes an effect row not runnable):\n`
          : '\nparts of effect rows (pipelines/sandbox-effects.yaml lists a row that needs an absent one as not runnable here):\n',
      );
      for (const r of sandboxRequirements()) process.stdout.write(`${r.met ? 'ok     ' : 'absent '} ${r.id.padEnd(width)}  ${r.part}: ${r.detail}\n`);
    }
    // Host settings known to add noise: warnings with remedies, never a failed requirement.
    const dataDir = process.env['BENCHGRAPH_DATA'] ?? '.data';
    const warnings = noiseWarnings(readHostFingerprint({ dataDir }));
    const dataFs = dataFilesystem(existsSync(dataDir) ? dataDir : '.');
    // A pipeline whose data section makes a journaled ext4 image (mounted at the data folder for each command) never samples on this file system.
    const risk = dataFs && !pipeline?.dataImage ? deletionCarryoverRisk(dataFs, 'the data folder') : null;
    if (risk)
      warnings.push({
        setting: 'data file system',
        detail: risk,
        remedy:
          'give the pipeline file data: { filesystem: { kind: ext4-image, size_gib: 40 } } (a journaled ext4 image mounted at the data folder for each command; pipeline.yaml has it), or use --data DIR on a journaled file system; reports/carryover-probe measures the effect',
      });
    process.stdout.write(`\nhost settings known to add noise (${warnings.length ? 'warnings; the exit code does not depend on them' : 'none found'}):\n`);
    for (const w of warnings) process.stdout.write(`warn    ${w.setting.padEnd(width)}  ${w.detail}  -> ${w.remedy}\n`);
    const missing = reqs.filter((r) => !r.met);
    if (missing.length === 0) {
      process.stdout.write(pipeline ? `all requirements of ${pipeline.shown} are met\n` : 'all requirements of the real paths are met\n');
      return 0;
    }
    if (flags['quiet'] !== true) {
      process.stdout.write(
        pipeline
          ? `\n${missing.length} requirement(s) missing; each line above names its remedy\n`
          : `\n${missing.length} requirement(s) missing. Debian packages of the real paths:\n  apt-get update && apt-get install -y ${DEBIAN_PACKAGES.join(' ')}\n`,
      );
    }
    return 1;
  },
};

/** With -f FILE: the pipeline as doctor reads it (the parts it uses), or null without -f. */
async function pipelineParts(
  file: unknown,
): Promise<{ shown: string; effects: boolean; dataImage: boolean; requirementsOf: <R extends { id: string }>(reqs: readonly R[]) => R[] } | null> {
  if (typeof file !== 'string') return null;
  const [{ loadPipeline }, { knownStageKinds, projectStageRegistry }, { usedParts, requirementsUsed }, { projectRoot }] = await Promise.all([
    import('../config/load-pipeline.js'),
    import('../engine/stage-registry.js'),
    import('../publish/used-tools.js'),
    import('../process/project-root.js'),
  ]);
  const config = loadPipeline(resolve(file), { sets: [], knownKinds: knownStageKinds() });
  // the scripts stages run for the paths their `with:` names (burst-sample's with.paths)
  const registry = projectStageRegistry(null);
  const stageScripts: string[] = [];
  for (const s of config.stages) stageScripts.push(...((await registry.load(s.uses)).runsScripts?.(s.with ?? {}) ?? []));
  const parts = usedParts(config, [], join(projectRoot(), 'harness'), stageScripts);
  return {
    shown: relative(process.cwd(), resolve(file)) || file,
    // the stages that check sandbox parts of their own when they run (harness/sandbox/sandbox-requirements.ts)
    effects: config.stages.some((s) => s.uses === 'effects-sample' || s.uses === 'restore-sweep-sample'),
    dataImage: config.data?.filesystem?.kind === 'ext4-image' && process.env['BENCHGRAPH_DATA'] === undefined,
    requirementsOf: (reqs) => requirementsUsed(reqs, parts),
  };
}

// The pipeline commands: run, status, audit, gc, show. Each parses its flags
// and calls the engine; printing is the only thing done here. Each command
// imports the engine module it calls when it runs, so `status` does not load
// the run's executor and `run` does not load audit or gc.
import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { loadPipelineCached } from '../config/config-cache.js';
import type { PipelineConfig } from '../config/pipeline-config.js';
import { CheckFailed, UserError } from '../errors.js';
import { knownStageKinds } from '../engine/stage-registry.js';
import { privateCacheFolder } from '../process/private-cache-folder.cjs';
import type { CliCommand } from './cli-command.js';
import { listFlag, type FlagSpec } from './parse-args.js';
import { writeErr, writeOut } from '../process/std-write.js';

const COMMON: FlagSpec = {
  file: { kind: 'string', short: 'f', value: 'FILE', help: 'pipeline file (default pipeline.yaml)' },
  data: { kind: 'string', value: 'DIR', help: 'data folder (default .data, or $BENCHGRAPH_DATA)' },
  set: { kind: 'list', value: 'KEY=VALUE', help: 'override a config key (part of the hashed inputs)' },
  json: { kind: 'boolean', help: 'print JSON instead of text' },
};

/**
 * Loads the pipeline (through the config cache: config-cache.ts) and opens its data folder
 * (mounting its image when data.filesystem asks; unmounted by the cleanup at exit).
 */
async function load(flags: Record<string, unknown>, options: { readOnly?: boolean } = {}): Promise<{ config: PipelineConfig; dataDir: string }> {
  const file = (flags['file'] as string | undefined) ?? 'pipeline.yaml';
  const cacheDir = process.env['BENCHGRAPH_CONFIG_CACHE'] === '0' ? null : privateCacheFolder('config');
  const { config } = await loadPipelineCached(file, { sets: (flags['set'] as string[] | undefined) ?? [], knownKinds: knownStageKinds() }, cacheDir);
  const dataDir = dataDirOf(flags);
  const filesystem = config.data?.filesystem;
  if (filesystem) {
    const image = await import('../process/data-image.js');
    // a command that only reads (audit, status, show, gc, run --dry-run) never makes a data image: without one there is nothing frozen here to mount
    if (options.readOnly === true && !existsSync(image.dataImageFile(dataDir))) {
      log(
        `data folder ${dataDir}: no data image (${image.dataImageFile(dataDir)}) yet, so nothing of ${relative(process.cwd(), config.file) || config.file} is frozen there`,
      );
      return { config, dataDir };
    }
    try {
      image.mountDataImage(dataDir, filesystem, log);
    } catch (e) {
      // the data image is the pipeline file's setting: name the file it was read from (e.g. the default pipeline.yaml when -f was not given)
      if (e instanceof UserError && !e.place.file)
        throw new UserError(e.message, { ...e.place, file: relative(process.cwd(), config.file) || config.file }, e.hint);
      throw e;
    }
  }
  return { config, dataDir };
}

function dataDirOf(flags: Record<string, unknown>): string {
  return resolve((flags['data'] as string | undefined) ?? process.env['BENCHGRAPH_DATA'] ?? '.data');
}

const log = (line: string): void => writeErr(line + '\n');

/** --dry-run of a plan that samples until decided: its looks, error rate and power, on stderr (harness/comparison/plan-check.ts). */
async function printPlanCheck(config: PipelineConfig): Promise<void> {
  const [{ planCheckInputs }, { checkPlan }, { planCheckLines }, { projectDirOf }] = await Promise.all([
    import('../experiment/plan-check-inputs.js'),
    import('../comparison/plan-check.js'),
    import('../comparison/plan-check-text.js'),
    import('../config/project-dir.js'),
  ]);
  const inputs = planCheckInputs(config, projectDirOf(config.file));
  if (inputs) for (const line of planCheckLines(inputs.plan, checkPlan(inputs.plan, inputs.profiles), inputs.source)) log(line);
}

const RUN_FLAGS: FlagSpec = {
  ...COMMON,
  only: { kind: 'list', value: 'ID,..', help: 'run only these stages (others are reused)' },
  force: { kind: 'list', value: 'ID,..', help: 'rerun these stages even when fresh' },
  'dry-run': { kind: 'boolean', help: 'print what would run and what would be reused, run nothing' },
  executor: {
    kind: 'string',
    value: 'KIND',
    help: 'where sampling sessions run, as executor.kind (overrides it; a wrong KIND lists the kinds; not part of any key)',
  },
  'allow-dirty': { kind: 'boolean', help: 'publish even when the git work tree of the report folder has uncommitted changes (the report says so)' },
  label: { kind: 'string', value: 'TEXT', help: 'label of the run filed in the report archive, e.g. a release (for history --by label; not part of any key)' },
};

export const runCommand: CliCommand = {
  summary: 'reproduce the report described by the pipeline file',
  usage: 'pipeline run [-f FILE] [--data DIR] [--only ID,..] [--force ID,..] [--set KEY=VALUE ..] [--label TEXT] [--allow-dirty] [--dry-run] [--json]',
  about:
    'Runs every stale stage of the pipeline and reuses every fresh one; --json ends with\n{"stages":[{"id","uses","key","action","outputDigest","seconds"}]}.',
  flags: RUN_FLAGS,
  run: async ({ flags }) => {
    const { config, dataDir } = await load(flags, { readOnly: flags['dry-run'] === true });
    const executor = flags['executor'];
    if (executor !== undefined) {
      const { EXECUTOR_KINDS, isExecutorKind } = await import('../executors/session-executor.js');
      if (typeof executor !== 'string' || !isExecutorKind(executor))
        throw new UserError(`unknown executor '${String(executor)}'`, { key: '--executor' }, `use one of: ${EXECUTOR_KINDS.join(', ')}`);
      config.executor = { ...config.executor, kind: executor };
    }
    // taken only by a run that will write (run-pipeline.ts): a no-op rerun and --dry-run read as `status` does
    const dataLock = { taken: null as Promise<() => Promise<void>> | null };
    const lock = (): Promise<unknown> => (dataLock.taken ??= import('../engine/data-lock.js').then(({ acquireDataLock }) => acquireDataLock(dataDir)));
    try {
      const { runPipeline } = await import('../engine/run-pipeline.js');
      const outcomes = await runPipeline(config, {
        dataDir,
        lock,
        only: listFlag(flags['only']),
        force: listFlag(flags['force']),
        dryRun: flags['dry-run'] === true,
        log,
        get interactive() {
          return process.stderr.isTTY === true; // asked only when a stage runs: building process.stderr costs a no-op rerun about 1 ms (std-write.ts)
        },
        label: typeof flags['label'] === 'string' ? flags['label'] : null,
        allowDirty: flags['allow-dirty'] === true,
        sets: (flags['set'] as string[] | undefined) ?? [],
      });
      if (flags['dry-run'] && !flags['json']) await printPlanCheck(config);
      if (flags['json']) {
        writeOut(JSON.stringify({ stages: outcomes }) + '\n');
      } else {
        const ran = outcomes.filter((o) => o.action === 'ran').length;
        const reused = outcomes.filter((o) => o.action === 'reused').length;
        writeOut(
          flags['dry-run']
            ? outcomes.map((o) => `${o.id}\t${o.action}${o.reasons?.length ? `\t${o.reasons.join('; ')}` : ''}`).join('\n') + '\n'
            : `done: ${ran} ran, ${reused} reused\n`,
        );
      }
      return 0;
    } catch (e) {
      const { diskFullFailure } = await import('../engine/disk-full.js');
      throw diskFullFailure(e, dataDir) ?? e; // disk-full.ts: a full data folder is one line, exit 1
    } finally {
      const release = await dataLock.taken?.catch(() => null); // a refused lock was thrown above, through runPipeline
      if (release) await release();
    }
  },
};

export const statusCommand: CliCommand = {
  summary: 'which stages are fresh or stale, and why',
  usage: 'pipeline status [-f FILE] [--json]',
  about: 'Lists every stage as fresh, STALE or INTERRUPTED (a run of its key stopped part way) with the reasons, without running anything.',
  flags: COMMON,
  run: async ({ flags }) => {
    const { config, dataDir } = await load(flags, { readOnly: true });
    const { pipelineStatus } = await import('../engine/pipeline-status.js');
    const status = await pipelineStatus(config, dataDir);
    // which file and which folder this is the status of (a --data without -f reads the default pipeline.yaml); after it is known, so an error stays one line
    log(`status of ${relative(process.cwd(), config.file) || config.file} in ${dataDir}`);
    // what the lock was made with: a run with --set values freezes other keys than the file's
    const { readLock } = await import('../engine/lock-file.js');
    const made = readLock(config.file, dataDir)?.set ?? [];
    const asked = (flags['set'] as string[] | undefined) ?? [];
    const sets = (v: readonly string[]): string => (v.length ? v.map((x) => `--set ${x}`).join(' ') : 'no --set');
    if ([...made].sort().join('\n') !== [...asked].sort().join('\n'))
      log(`the lock was made with ${sets(made)}; this status uses ${sets(asked)}: stages the lock names may show as stale or fresh under other keys`);
    if (flags['json']) {
      writeOut(JSON.stringify({ stages: status }) + '\n');
    } else {
      for (const s of status) {
        writeOut(
          `${s.state === 'fresh' ? 'fresh' : s.state === 'interrupted' ? 'INTERRUPTED' : 'STALE'}  ${s.id} (${s.uses})${s.reasons.length ? ': ' + s.reasons.join('; ') : ''}\n`,
        );
      }
    }
    return 0;
  },
};

export const auditCommand: CliCommand = {
  summary: 're-hash every frozen output, pinned artifact and report',
  usage: 'pipeline audit [-f FILE] [--json] | pipeline audit --remote REF@RUN [--ca FILE] [--json]',
  about:
    'Re-hashes the frozen outputs and pinned artifacts the lock file names, and recomputes each published report\u2019s\ncell and difference figures from its samples.csv; exit 1 on any mismatch.\nWith --remote, re-hashes every blob of a run in a registry as it streams, keeping no copy.',
  flags: {
    ...COMMON,
    remote: { kind: 'string', value: 'REF@RUN', help: 'audit a run in a registry instead (harness/store/)' },
    ca: { kind: 'string', value: 'FILE', help: "CA file of the registry's certificate (or $BENCHGRAPH_REGISTRY_CA)" },
  },
  run: async ({ flags }) => {
    if (typeof flags['remote'] === 'string') return (await import('../store/remote-audit-command.js')).auditRemote(flags);
    const { config, dataDir } = await load(flags, { readOnly: true });
    const { auditPipeline } = await import('../engine/audit.js');
    const result = await auditPipeline(config, dataDir);
    if (flags['json']) process.stdout.write(JSON.stringify(result) + '\n');
    else {
      for (const f of result.findings) process.stdout.write(`${f.problem.toUpperCase()}  ${f.file}  (stage ${f.stage})${f.detail ? `: ${f.detail}` : ''}\n`);
      if (result.notHere.length) {
        process.stdout.write(`no data folder holds this lock's frozen outputs here (${dataDir}); checked instead:\n`);
        for (const n of result.notHere) process.stdout.write(`  ${n.stage}: ${n.checked}\n`);
      }
      for (const e of result.elsewhere ?? [])
        process.stdout.write(
          `${e.published}: published from another data folder's run (output ${e.digest.slice(0, 12)} in the lock beside the pipeline file), not compared with this folder's ${e.stage}; audit that folder with --data\n`,
        );
      for (const f of result.figures)
        process.stdout.write(
          `${f.folder}: ${f.figures} figures of ${f.cells} cells and ${f.differences} differences recomputed from samples.csv, ${f.differ} differ (intervals and verdicts are not: they are a seeded resampling)\n`,
        );
      process.stdout.write(
        `${result.checkedFiles} files checked, ${result.figures.reduce((n, f) => n + f.figures, 0)} figures recomputed, ${result.findings.length} problems\n`,
      );
    }
    if (result.findings.length) throw new CheckFailed(`audit found ${result.findings.length} problem(s)`);
    return 0;
  },
};

export const gcCommand: CliCommand = {
  summary: 'remove frozen outputs, scratch and build cache no lock file needs',
  usage: 'pipeline gc [-f FILE] [--dry-run]',
  about:
    'Removes stage outputs no lock file next to the pipeline file references, .data/work folders of such keys,\nbuild-cache entries no kept pin references, and folders of dead runs; --dry-run lists them with their bytes.',
  flags: { ...COMMON, 'dry-run': { kind: 'boolean', help: 'list what would go and how many bytes, remove nothing' } },
  run: async ({ flags }) => {
    const { config, dataDir } = await load(flags, { readOnly: true });
    const file = config.file;
    const [{ garbageCollect }, { formatGc }, { acquireDataLock }] = await Promise.all([
      import('../engine/garbage-collect.js'),
      import('../engine/gc-summary.js'),
      import('../engine/data-lock.js'),
    ]);
    const release = await acquireDataLock(dataDir);
    try {
      const r = garbageCollect(file, dataDir, { dryRun: flags['dry-run'] === true });
      if (flags['json']) process.stdout.write(JSON.stringify(r) + '\n');
      else process.stdout.write(formatGc(r));
      return 0;
    } finally {
      await release();
    }
  },
};

export const showCommand: CliCommand = {
  summary: "print a stage's manifest",
  usage: 'pipeline show ID [-f FILE]',
  positionals: true,
  about: "Prints the manifest of a stage's frozen output: key inputs, output digests, host facts.",
  flags: COMMON,
  run: async ({ flags, positional }) => {
    const id = positional[0];
    if (!id) throw new UserError('needs a stage id', { key: 'show' }, 'e.g. pipeline show analyze');
    const { config, dataDir } = await load(flags, { readOnly: true });
    const [{ readLock }, { Store }] = await Promise.all([import('../engine/lock-file.js'), import('../engine/store.js')]);
    const lock = readLock(config.file, dataDir);
    const entry = lock?.stages[id];
    if (!config.stages.some((s) => s.id === id))
      throw new UserError(`no stage with id '${id}'`, { key: 'show' }, `stage ids: ${config.stages.map((s) => s.id).join(', ')}`);
    if (!entry) throw new UserError(`stage '${id}' has not run yet`, { key: 'show' }, 'run `pipeline run` first');
    const store = new Store(dataDir);
    const file = `${store.stageDir(entry.uses, entry.key)}/manifest.json`;
    if (!existsSync(file)) throw new CheckFailed(`the frozen output of '${id}' recorded in the lock file is missing: ${file}`);
    process.stdout.write(readFileSync(file, 'utf8'));
    return 0;
  },
};

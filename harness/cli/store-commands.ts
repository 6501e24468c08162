// The team store commands: push and pull of frozen runs to and from an OCI
// registry (harness/store/). Thin: flags in, library calls, one line out. The
// store modules load inside run(), so other commands never pay for them.
import { existsSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import type { CliCommand } from './cli-command.js';
import type { FlagSpec } from './parse-args.js';

const STORE_FLAGS: FlagSpec = {
  file: { kind: 'string', short: 'f', value: 'FILE', help: 'pipeline file (default pipeline.yaml)' },
  data: { kind: 'string', value: 'DIR', help: 'data folder (default .data, or $BENCHGRAPH_DATA)' },
  ca: { kind: 'string', value: 'FILE', help: "PEM file of the CA that signed the registry's certificate (or $BENCHGRAPH_REGISTRY_CA)" },
  json: { kind: 'boolean', help: 'print JSON instead of text' },
};

const fileOf = (flags: Record<string, unknown>): string => resolve((flags['file'] as string | undefined) ?? 'pipeline.yaml');
const dataOf = (flags: Record<string, unknown>): string => resolve((flags['data'] as string | undefined) ?? process.env['BENCHGRAPH_DATA'] ?? '.data');
const caOf = (flags: Record<string, unknown>): string | null => (typeof flags['ca'] === 'string' ? flags['ca'] : null);
const log = (line: string): void => void process.stderr.write(line + '\n');

async function loadConfig(file: string) {
  const { loadPipeline } = await import('../config/load-pipeline.js');
  const { knownStageKinds } = await import('../engine/stage-registry.js');
  return loadPipeline(file, { sets: [], knownKinds: knownStageKinds() });
}

export const pushCommand: CliCommand = {
  summary: 'push the frozen run the lock names to an OCI registry, as one artifact tagged by its run digest',
  usage: 'pipeline push REF [-f FILE] [--data DIR] [--ca FILE] [--mount-from REPO ..] [--repair] [--json]',
  about: [
    'REF is HOST[:PORT]/REPOSITORY, e.g. registry.example/team/benchgraph. Every frozen output, observation,',
    'stage manifest and the lock go as content-addressed blobs (HEAD first, chunked upload), the manifest last;',
    'the tag is <experiment>_<run digest>, so a replicate under the same sample key becomes a sibling, never a',
    'replacement. Credentials come from ~/.docker/config.json (auths, credsStore, credHelpers).',
    '--json prints {"runId","ref","tag","manifestDigest","action","blobs":{"present","mounted","uploaded"},"uploadedBytes"}.',
  ].join('\n'),
  flags: {
    ...STORE_FLAGS,
    'mount-from': { kind: 'list', value: 'REPO', help: 'another repository of the same registry to mount blobs from instead of uploading them' },
    repair: {
      kind: 'boolean',
      help: 'read back and hash every blob the registry holds, send the missing ones even when the run is there, and name the damaged ones',
    },
  },
  positionals: true,
  run: async ({ flags, positional }) => {
    const { UserError } = await import('../errors.js');
    if (positional.length !== 1) throw new UserError(`expected one registry reference, got ${positional.length}`, { key: 'push' }, 'usage: pipeline push REF');
    const { parseRegistryRef } = await import('../store/registry-ref.js');
    const { clientFor } = await import('../store/remote-run.js');
    const { readLocalRun } = await import('../store/local-run.js');
    const { pushRun } = await import('../store/push-run.js');
    const { listFlag } = await import('./parse-args.js');
    const ref = parseRegistryRef(positional[0]!, 'push');
    if (ref.run) throw new UserError(`push takes a repository, not a run: '${positional[0]}'`, { key: 'push' }, 'drop the @RUN; the run digest is the tag');
    const file = fileOf(flags);
    const config = await loadConfig(file);
    const run = readLocalRun(file, dataOf(flags));
    const client = clientFor(ref, caOf(flags), 'pull,push');
    try {
      const { signer } = await import('../store/run-signature.js');
      const r = await pushRun(client, config.experiment.name, run, {
        mountFrom: listFlag(flags['mount-from']),
        annotate: signer(config.store, dirname(file)),
        repair: flags['repair'] === true,
      });
      const at = `${ref.registry}/${ref.repository}@${r.runId}`;
      if (flags['json']) process.stdout.write(JSON.stringify({ ...r, ref: at }) + '\n');
      else {
        log(
          `${r.action === 'pushed' ? 'pushed' : r.action === 'repaired' ? 'repaired: every blob checked,' : 'already there:'} run ${r.runId} (${r.blobs.uploaded} blobs uploaded, ${r.blobs.present} present${flags['repair'] === true ? ' and intact' : ''}, ${r.blobs.mounted} mounted; ${r.uploadedBytes} bytes)`,
        );
        process.stdout.write(at + '\n');
      }
      return 0;
    } finally {
      client.close();
    }
  },
};

export const pullCommand: CliCommand = {
  summary: 'pull a run from an OCI registry into the data folder as a local frozen run (every blob checked)',
  usage: 'pipeline pull REF[@RUN] [-f FILE] [--data DIR] [--ca FILE] [--replace] [--publish] [--json]',
  about: [
    "Without @RUN, the newest run of the pipeline's experiment in REF. Every blob is hashed as it arrives into a",
    'temporary folder; a run whose lock or manifests name blobs that do not match is refused and nothing local is',
    "changed. Then its stage folders go into the store and the data folder's own lock record names them, so",
    '`pipeline audit --data DIR` verifies it and `pipeline run --data DIR --only analyze,report` reuses its samples.',
    'The lock beside the pipeline file and the published report are written only where there is no lock yet, or',
    'with --publish: a pull never replaces a published run unasked.',
    'With store.signing in pipeline.yaml, a run that is unsigned or signed by a key not trusted is refused.',
    '--json prints {"runId","tag","action","stagesFetched","fetchedBytes"}.',
  ].join('\n'),
  flags: {
    ...STORE_FLAGS,
    replace: { kind: 'boolean', help: 'replace a stage frozen here under the same key with other outputs (push it first to keep it)' },
    publish: { kind: 'boolean', help: 'also write the lock beside the pipeline file and publish the report, replacing the published run' },
  },
  positionals: true,
  run: async ({ flags, positional }) => {
    const { UserError } = await import('../errors.js');
    if (positional.length !== 1)
      throw new UserError(`expected one registry reference, got ${positional.length}`, { key: 'pull' }, 'usage: pipeline pull REF[@RUN]');
    const { parseRegistryRef } = await import('../store/registry-ref.js');
    const { clientFor } = await import('../store/remote-run.js');
    const { resolveRun } = await import('../store/run-index.js');
    const { isPresent, openRun, pullRun } = await import('../store/pull-run.js');
    const ref = parseRegistryRef(positional[0]!, 'pull');
    const file = fileOf(flags);
    const dataDir = dataOf(flags);
    const client = clientFor(ref, caOf(flags), 'pull');
    let config: Awaited<ReturnType<typeof loadConfig>> | null = null;
    const configOnce = async () => (config ??= await loadConfig(file));
    try {
      const remote = ref.run
        ? await resolveRun(client, ref.run, 'pull')
        : await (await import('../store/newest-run.js')).newestRun(client, (await configOnce()).experiment.name);
      const run = await openRun(client, remote);
      if (isPresent(run.config, file, dataDir)) {
        const r = { runId: remote.runDigest.slice(0, 12), tag: remote.tag, action: 'already present', stagesFetched: 0, fetchedBytes: 0 };
        process.stdout.write(flags['json'] ? JSON.stringify(r) + '\n' : `run ${r.runId} is already here\n`);
        return 0;
      }
      const c = await configOnce();
      const problem = (await import('../store/run-signature.js')).signatureProblem(c.store, dirname(file), run.manifest);
      if (problem) {
        const { CheckFailed } = await import('../errors.js');
        throw new CheckFailed(`run ${remote.runDigest.slice(0, 12)} is refused: ${problem}; nothing local was changed`);
      }
      const { acquireDataLock } = await import('../engine/data-lock.js');
      const { folderLockPath, lockPathFor } = await import('../engine/lock-file.js');
      // publish where nothing is published yet (an empty project folder), or when asked
      const publish = flags['publish'] === true || !existsSync(lockPathFor(file));
      const release = await acquireDataLock(dataDir);
      try {
        const r = await pullRun(client, run, {
          pipelineFile: file,
          dataDir,
          stageIds: () => c.stages.map((s) => s.id),
          replace: flags['replace'] === true,
          log,
          ...(publish ? { publish: async (runConfig) => (await import('../store/publish-pulled.js')).publishPulled(c, dataDir, runConfig, log) } : {}),
        });
        const shown = (p: string): string => relative(process.cwd(), p) || p;
        if (flags['json']) process.stdout.write(JSON.stringify({ ...r, dataDir, lock: folderLockPath(file, dataDir), published: publish }) + '\n');
        else if (r.action !== 'pulled') process.stdout.write(`run ${r.runId} is already here\n`);
        else
          process.stdout.write(
            `pulled run ${r.runId} into ${shown(dataDir)}: ${r.stagesFetched} stages, ${r.fetchedBytes} bytes; its lock record is ${shown(folderLockPath(file, dataDir))}\n` +
              (publish
                ? `published: ${shown(lockPathFor(file))} and the report name it\n`
                : `the published report and ${shown(lockPathFor(file))} are as they were (--publish replaces them); \`pipeline audit --data ${shown(dataDir)}\` checks the pulled run\n`),
          );
        return 0;
      } finally {
        await release();
      }
    } finally {
      client.close();
    }
  },
};

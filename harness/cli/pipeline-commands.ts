// The pipeline commands: run, status, audit, gc, show. Each parses its flags
// and calls the engine; printing is the only thing done here.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadPipeline } from '../config/load-pipeline.js';
import type { PipelineConfig } from '../config/pipeline-config.js';
import { CheckFailed, UserError } from '../errors.js';
import { auditPipeline } from '../engine/audit.js';
import { acquireDataLock } from '../engine/data-lock.js';
import { garbageCollect } from '../engine/garbage-collect.js';
import { diskFullFailure } from '../engine/disk-full.js';
import { formatGc } from '../engine/gc-summary.js';
import { readLock } from '../engine/lock-file.js';
import { pipelineStatus } from '../engine/pipeline-status.js';
import { runPipeline } from '../engine/run-pipeline.js';
import { knownStageKinds } from '../engine/stage-registry.js';
import { Store } from '../engine/store.js';
import { listFlag, parseArgs } from './parse-args.js';

const COMMON = { file: 'string', data: 'string', json: 'boolean', set: 'list' } as const;
const ALIASES = { f: 'file' };

function load(flags: Record<string, unknown>): { config: PipelineConfig; dataDir: string } {
  const file = (flags['file'] as string | undefined) ?? 'pipeline.yaml';
  const config = loadPipeline(file, { sets: (flags['set'] as string[] | undefined) ?? [], knownKinds: knownStageKinds() });
  return { config, dataDir: dataDirOf(flags) };
}

function dataDirOf(flags: Record<string, unknown>): string {
  return resolve((flags['data'] as string | undefined) ?? process.env['BENCHGRAPH_DATA'] ?? '.data');
}

const log = (line: string): void => {
  process.stderr.write(line + '\n');
};

export async function runCommand(args: string[]): Promise<number> {
  const { flags } = parseArgs(args, { ...COMMON, only: 'list', force: 'list', 'dry-run': 'boolean' }, ALIASES);
  const { config, dataDir } = load(flags);
  const release = acquireDataLock(dataDir);
  try {
    const outcomes = await runPipeline(config, {
      dataDir,
      only: listFlag(flags['only']),
      force: listFlag(flags['force']),
      dryRun: flags['dry-run'] === true,
      log,
      interactive: process.stderr.isTTY === true,
    });
    if (flags['json']) {
      process.stdout.write(JSON.stringify({ stages: outcomes }) + '\n');
    } else {
      const ran = outcomes.filter((o) => o.action === 'ran').length;
      const reused = outcomes.filter((o) => o.action === 'reused').length;
      process.stdout.write(flags['dry-run'] ? outcomes.map((o) => `${o.id}\t${o.action}`).join('\n') + '\n' : `done: ${ran} ran, ${reused} reused\n`);
    }
    return 0;
  } catch (e) {
    throw diskFullFailure(e, dataDir) ?? e; // disk-full.ts: a full data folder is one line, exit 1
  } finally {
    await release();
  }
}

export async function statusCommand(args: string[]): Promise<number> {
  const { flags } = parseArgs(args, COMMON, ALIASES);
  const { config, dataDir } = load(flags);
  const status = await pipelineStatus(config, dataDir);
  if (flags['json']) {
    process.stdout.write(JSON.stringify({ stages: status }) + '\n');
  } else {
    for (const s of status) {
      process.stdout.write(`${s.state === 'fresh' ? 'fresh' : 'STALE'}  ${s.id} (${s.uses})${s.reasons.length ? ': ' + s.reasons.join('; ') : ''}\n`);
    }
  }
  return 0;
}

export async function auditCommand(args: string[]): Promise<number> {
  const { flags } = parseArgs(args, COMMON, ALIASES);
  const { config, dataDir } = load(flags);
  const result = await auditPipeline(config, dataDir);
  if (flags['json']) process.stdout.write(JSON.stringify(result) + '\n');
  else {
    for (const f of result.findings) process.stdout.write(`${f.problem.toUpperCase()}  ${f.file}  (stage ${f.stage})\n`);
    process.stdout.write(`${result.checkedFiles} files checked, ${result.findings.length} problems\n`);
  }
  if (result.findings.length) throw new CheckFailed(`audit found ${result.findings.length} problem(s)`);
  return 0;
}

export async function gcCommand(args: string[]): Promise<number> {
  const { flags } = parseArgs(args, { ...COMMON, 'dry-run': 'boolean' }, ALIASES);
  const file = resolve((flags['file'] as string | undefined) ?? 'pipeline.yaml');
  const dataDir = dataDirOf(flags);
  const release = acquireDataLock(dataDir);
  try {
    const r = garbageCollect(file, dataDir, { dryRun: flags['dry-run'] === true });
    if (flags['json']) process.stdout.write(JSON.stringify(r) + '\n');
    else process.stdout.write(formatGc(r));
    return 0;
  } finally {
    await release();
  }
}

export async function showCommand(args: string[]): Promise<number> {
  const { flags, positional } = parseArgs(args, COMMON, ALIASES);
  const id = positional[0];
  if (!id) throw new UserError('needs a stage id', { key: 'show' }, 'e.g. pipeline show analyze');
  const { config, dataDir } = load(flags);
  const lock = readLock(config.file);
  const entry = lock?.stages[id];
  if (!config.stages.some((s) => s.id === id)) throw new UserError(`no stage with id '${id}'`, { key: 'show' }, `stage ids: ${config.stages.map((s) => s.id).join(', ')}`);
  if (!entry) throw new UserError(`stage '${id}' has not run yet`, { key: 'show' }, 'run `pipeline run` first');
  const store = new Store(dataDir);
  const file = `${store.stageDir(entry.uses, entry.key)}/manifest.json`;
  if (!existsSync(file)) throw new CheckFailed(`the frozen output of '${id}' recorded in the lock file is missing: ${file}`);
  process.stdout.write(readFileSync(file, 'utf8'));
  return 0;
}

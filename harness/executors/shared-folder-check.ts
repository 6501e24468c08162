// Checks, before sampling is distributed, that every node sees a folder the
// runner sees (the data folder on a shared filesystem): a tiny job per node
// writes a token file into it, and the runner must read that token back.
// A node that cannot is a UserError naming the node, the folder and the remedy.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UserError } from '../errors.js';
import { slurmClientOk } from '../cluster/slurm-client.js';
import { runSlurmJobs } from './slurm-executor.js';
import type { SlurmExecutorOptions } from './slurm-job-types.js';

export interface SharedFolderCheckOptions extends Omit<SlurmExecutorOptions, 'outputDir' | 'onProgress' | 'nodelist'> {
  /** Nodes to check; default: every node of the partition (or of the cluster). */
  nodes?: string[];
}

export interface NodeVisibility {
  node: string;
  visible: boolean;
  /** Why not, when not visible. */
  detail: string | null;
}

/** Node names as sinfo lists them (in the partition, when given). */
export async function clusterNodes(slurmConf?: string, partition?: string): Promise<string[]> {
  const args = ['-N', '-h', '-o', '%N', ...(partition ? ['--partition', partition] : [])];
  const names = (await slurmClientOk('sinfo', args, slurmConf))
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean);
  return [...new Set(names)];
}

/** What each node sees of the folder, as data. */
export async function folderVisibility(folder: string, options: SharedFolderCheckOptions = {}): Promise<NodeVisibility[]> {
  const dir = resolve(folder);
  if (!existsSync(dir))
    throw new UserError(`shared folder ${dir} does not exist on this host`, { key: 'executor' }, 'create it on the shared filesystem first');
  const token = randomBytes(8).toString('hex');
  const checkDir = join(dir, `.benchgraph-visible-${token}`);
  mkdirSync(checkDir);
  try {
    const nodes = options.nodes ?? (await clusterNodes(options.slurmConf, options.partition));
    const outcomes = await runSlurmJobs(
      nodes.map((node) => ({
        name: `visible-${node}`,
        nodelist: node,
        argv: ['sh', '-c', 'printf %s "$1" > "$2"', 'sh', `${token} ${node}`, join(checkDir, `${node}.token`)],
      })),
      { ...options, outputDir: checkDir },
    );
    return outcomes.map((o, i) => {
      const node = nodes[i]!;
      let seen = '';
      try {
        seen = readFileSync(join(checkDir, `${node}.token`), 'utf8');
      } catch {
        /* not written where this host can see it */
      }
      if (seen === `${token} ${node}`) return { node, visible: true, detail: null };
      const why =
        o.state === 'done'
          ? 'its job ran but wrote where this host cannot see'
          : `its check job ${o.state}: ${o.reason ?? o.slurmState}${o.exitCode !== null ? `, exit ${o.exitCode}` : ''}`;
      return { node, visible: false, detail: why };
    });
  } finally {
    rmSync(checkDir, { recursive: true, force: true });
  }
}

/** Throws a UserError when a node cannot see the folder. */
export async function checkSharedFolder(folder: string, options: SharedFolderCheckOptions = {}): Promise<void> {
  const blind = (await folderVisibility(folder, options)).filter((v) => !v.visible);
  if (!blind.length) return;
  throw new UserError(
    `node${blind.length > 1 ? 's' : ''} ${blind.map((b) => `${b.node} (${b.detail})`).join(', ')} cannot see the shared folder ${resolve(folder)}`,
    { key: 'executor' },
    'put the data folder (--data) on a filesystem every node mounts at the same path, e.g. NFS',
  );
}

// Effects: converts a pinned image, already pushed into a registry mirror on
// loopback, to eStargz as users of the stargz snapshotter do:
// `ctr-remote image optimize --oci` (Debian's stargz-snapshotter) in a private
// containerd (its own root, state and socket under the prepare stage's
// scratch folder, the CRI plugin off), then `ctr images push` into the same
// registry. Once with --no-optimize (no prefetch landmark: every file is read
// on demand), tagged `estargz`; and once per cohort of the image with the
// cohort's command as the workload, whose file accesses become the
// prioritized files before the prefetch landmark, tagged `estargz-<cohort>`.
// The workload runs in a container with a network namespace of its own that
// holds only loopback (ctr-remote's default without --cni or --net-host).
// The containerd is stopped by its pid and its mounts are undone on exit,
// error and signal.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { registryManifestDigest } from '../artifacts/registry-push.js';
import { CheckFailed } from '../errors.js';
import { onCleanup } from '../process/cleanup.js';
import { mountsUnder } from '../process/mount-table.js';
import { runUntimed } from '../process/untimed-command.js';
import { canConnectUnix, startProcess, waitUntil } from './service-process.js';
import { timedSeconds } from './service-kind.js';

/** A cohort whose start-up is the workload of its image's prefetch landmark. */
export interface LandmarkWorkload {
  cohort: string;
  argv: readonly string[];
}

export interface EstargzConversion {
  /** Manifest digest of the image converted without a landmark (tag `estargz`). */
  plain: string;
  /** Per cohort, the manifest digest of the image optimized for its start-up (tag `estargz-<cohort>`). */
  byCohort: Record<string, string>;
  /** Wall seconds of each conversion with its push. */
  seconds: { what: string; seconds: number }[];
}

/** Pure: the workloads of an image's landmarks: each cohort that starts it, its command with its marker filled by a constant. */
export function landmarkWorkloads(imageId: string, cohorts: Record<string, { image?: string; command: readonly string[] }>): LandmarkWorkload[] {
  return Object.entries(cohorts)
    .filter(([, c]) => c.image === imageId)
    .map(([cohort, c]) => ({ cohort, argv: c.command.map((a) => a.split('{marker}').join('estargz-landmark')) }));
}

/** The tag of an image converted for a cohort (or without a landmark, for null). */
export const estargzTag = (cohort: string | null): string => (cohort === null ? 'estargz' : `estargz-${cohort}`);

function containerdConfig(dir: string, socket: string): string {
  return [
    'version = 2',
    `root = ${JSON.stringify(join(dir, 'root'))}`,
    `state = ${JSON.stringify(join(dir, 'state'))}`,
    'disabled_plugins = ["io.containerd.grpc.v1.cri"]',
    '[grpc]',
    `  address = ${JSON.stringify(socket)}`,
    '[ttrpc]',
    `  address = ${JSON.stringify(`${socket}.ttrpc`)}`,
    '',
  ].join('\n');
}

export async function convertToEstargz(o: {
  /** The registry's address (host:port on loopback). */
  address: string;
  repository: string;
  manifestDigest: string;
  workloads: readonly LandmarkWorkload[];
  /** Scratch folder (removed when done). */
  runDir: string;
  log: (line: string) => void;
  signal?: AbortSignal;
}): Promise<EstargzConversion> {
  const dir = join(o.runDir, 'containerd');
  mkdirSync(dir, { recursive: true });
  // a unix socket path is limited to 107 bytes
  const sockDir = mkdtempSync(join(tmpdir(), 'bg-ctrd-'));
  const socket = join(sockDir, 'containerd.sock');
  writeFileSync(join(dir, 'config.toml'), containerdConfig(dir, socket));
  const logFile = join(dir, 'containerd.log');
  const proc = startProcess('containerd for eStargz conversion', 'containerd', ['--config', join(dir, 'config.toml')], logFile);
  const teardown = async (): Promise<void> => {
    await proc.stop(10_000);
    for (const m of mountsUnder(dir).sort((a, b) => b.length - a.length)) {
      try {
        execFileSync('umount', [m], { stdio: 'ignore' });
      } catch {
        execFileSync('umount', ['-l', m], { stdio: 'ignore' });
      }
    }
    rmSync(sockDir, { recursive: true, force: true });
    if (!mountsUnder(dir).length) rmSync(dir, { recursive: true, force: true });
  };
  const undo = onCleanup(`eStargz conversion containerd (pid ${proc.pid})`, teardown);
  try {
    await waitUntil('containerd', proc, logFile, () => canConnectUnix(socket));
    const ctr = (args: string[]) => runUntimed('ctr', ['--address', socket, ...args], { signal: o.signal });
    const source = `${o.address}/${o.repository}@${o.manifestDigest}`;
    await ctr(['images', 'pull', '--plain-http', source]);
    const out: EstargzConversion = { plain: '', byCohort: {}, seconds: [] };
    for (const w of [null, ...o.workloads]) {
      const tag = estargzTag(w?.cohort ?? null);
      const target = `${o.address}/${o.repository}:${tag}`;
      const how = w ? ['--period', '60', '--entrypoint', JSON.stringify([w.argv[0]]), '--args', JSON.stringify(w.argv.slice(1))] : ['--no-optimize'];
      const seconds = await timedSeconds(async () => {
        await runUntimed('ctr-remote', ['--address', socket, 'images', 'optimize', '--oci', ...how, source, target], { signal: o.signal });
        await ctr(['images', 'push', '--plain-http', target]);
      });
      const digest = await registryManifestDigest(o.address, o.repository, tag);
      if (!digest) throw new CheckFailed(`the registry does not serve ${o.repository}:${tag} after its eStargz conversion`);
      if (w) out.byCohort[w.cohort] = digest;
      else out.plain = digest;
      out.seconds.push({
        what: w
          ? `eStargz for ${w.cohort}'s start-up (ctr-remote image optimize, push)`
          : 'eStargz without a landmark (ctr-remote image optimize --no-optimize, push)',
        seconds,
      });
      o.log(`${o.repository}:${tag} ${digest} in ${seconds.toFixed(1)} s`);
    }
    return out;
  } finally {
    await undo();
  }
}

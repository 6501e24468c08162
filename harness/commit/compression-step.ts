// The source's next bottleneck: compressing the committed layer. On the
// native engine, per round, a fresh initial workload is committed (untimed;
// fresh random data, so no blob is ever already in the registry), then three
// measured compressions of that layer, each timed by the C launch helper:
//   gzip  - `docker push` to a docker-registry on 127.0.0.1 (Docker's default
//           gzip); size = the top layer's blob size in the pushed manifest;
//   zstd  - `skopeo copy --format oci --dest-compress-format zstd` from the
//           engine to the same registry; size from its manifest; the time
//           includes skopeo exporting the image from the engine;
//   pigz  - `pigz -c` of the layer tar (from `docker save`, untimed) to a file.
// The base image is pushed once, untimed, before the first round.
import { execFile } from 'node:child_process';
import { existsSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { StageContext } from '../contract/stage.js';
import type { Launcher, LaunchResult } from '../launch/launcher.js';
import { startDockerRegistry } from '../services/docker-registry-service.js';
import { onCleanup } from '../process/cleanup.js';
import { docker, dockerArgv } from './docker-cli.js';
import type { CommitEngine } from './commit-engines.js';
/** One measured compression of the round's layer. */
export interface CompressionLaunch {
  method: string;
  layerBytes: number;
  compressedBytes: number | null;
  wallMs: number | null;
  ok: boolean;
  failureReason: string | null;
  note: string;
}
import { removeWorkload, writeFilesScript } from './commit-workload.js';
import { topLayerListing } from './layer-listing.js';

const run = promisify(execFile);
const REPO = 'benchgraph/commit-compress';

async function topLayerBlobBytes(address: string, tag: string, accept: string): Promise<number> {
  const res = await fetch(`http://${address}/v2/${REPO}/manifests/${tag}`, { headers: { Accept: accept } });
  if (!res.ok) throw new Error(`registry manifest ${tag}: HTTP ${res.status}`);
  const m = (await res.json()) as { layers: { size: number }[] };
  return m.layers[m.layers.length - 1]!.size;
}

function launchOk(r: LaunchResult): { ok: boolean; reason: string | null } {
  const ok = r.state !== 'timeout' && r.exitCode === 0 && r.signal === null;
  return { ok, reason: ok ? null : (r.failureReason ?? `exit ${r.exitCode}: ${r.stderrTail.trim().slice(-300)}`) };
}

export async function runCompression(
  ctx: StageContext,
  launcher: Launcher,
  engine: CommitEngine,
  baseImage: string,
  opts: { total_mb: number; file_count: number; rounds: number },
  /** Journals one complete round's launches (a round cut short journals nothing and runs again). */
  record: (round: number, launches: CompressionLaunch[]) => Promise<void>,
  workDir: string,
  timeoutMs: number,
  doneRounds: ReadonlySet<number> = new Set(),
): Promise<void> {
  const registry = await startDockerRegistry(
    'commit-registry',
    { kind: 'docker-registry', count_bytes: false, with: { read_only: false } },
    undefined,
    join(workDir, 'registry'),
    ctx.log,
  );
  const stopRegistry = onCleanup('commit registry', () => registry.stop());
  const address = registry.endpoint.address!;
  const env = { PATH: process.env['PATH'] ?? '/usr/sbin:/usr/bin:/sbin:/bin', HOME: process.env['HOME'] ?? '/root' };
  const t = { socket: engine.socket, signal: ctx.signal };
  try {
    await docker(t, ['tag', baseImage, `${address}/${REPO}:base`]);
    await docker(t, ['push', `${address}/${REPO}:base`]);
    const perFile = Math.max(1, Math.round((opts.total_mb * 1e6) / opts.file_count));
    for (let round = 1; round <= opts.rounds; round++) {
      if (ctx.signal.aborted) throw ctx.signal.reason;
      if (doneRounds.has(round)) continue;
      ctx.progress?.(`commit-sample: compression round ${round}/${opts.rounds}`);
      const tag = `c${round}`;
      const image = `benchgraph/commit:init-${tag}`;
      try {
        await docker(t, ['run', '--network', 'none', '--name', `bg-init-${tag}`, baseImage, 'sh', '-c', writeFilesScript(opts.file_count, perFile)]);
        await docker(t, ['commit', `bg-init-${tag}`, image]);
        const layer = await topLayerListing(t, image, workDir);
        const layerBytes = layer.layerTarBytes;
        const launches: CompressionLaunch[] = [];
        const measure = async (method: string, argv: string[], size: () => Promise<number>, note: string): Promise<void> => {
          const r = await launcher.launch({
            launchId: `compress-${method.replace(/[^A-Za-z0-9._-]+/g, '_')}-${round}`,
            argv,
            env,
            cwd: '/',
            marker: 'BENCHGRAPH-NO-MARKER',
            timeoutMs,
            tailBytes: 2048,
          });
          const { ok, reason } = launchOk(r);
          launches.push({ method, layerBytes, compressedBytes: ok ? await size() : null, wallMs: ok ? r.completionMs : null, ok, failureReason: reason, note });
        };
        const gzipRef = `${address}/${REPO}:gzip-${round}`;
        await docker(t, ['tag', image, gzipRef]);
        await measure(
          'gzip (docker push)',
          dockerArgv(engine.socket, ['push', gzipRef]),
          () => topLayerBlobBytes(address, `gzip-${round}`, 'application/vnd.docker.distribution.manifest.v2+json'),
          'Docker default gzip, Go compress/gzip, one thread; time includes the upload to the loopback registry',
        );
        await measure(
          'zstd (skopeo copy)',
          [
            'skopeo',
            'copy',
            '--quiet',
            '--src-daemon-host',
            `unix://${engine.socket}`,
            '--dest-tls-verify=false',
            '--format',
            'oci',
            '--dest-compress-format',
            'zstd',
            `docker-daemon:${image}`,
            `docker://${address}/${REPO}:zstd-${round}`,
          ],
          () => topLayerBlobBytes(address, `zstd-${round}`, 'application/vnd.oci.image.manifest.v1+json'),
          'skopeo default zstd level; time includes exporting the image from the engine and the base layer',
        );
        const out = join(workDir, `layer-${round}.tar.gz`);
        await measure(
          'gzip (pigz)',
          ['sh', '-c', 'exec pigz -c "$1" > "$2"', 'sh', layer.layerTar, out],
          async () => statSync(out).size,
          'pigz default level 6, one thread per CPU, layer tar from docker save to a local file',
        );
        rmSync(join(layer.layerTar, '..', '..'), { recursive: true, force: true });
        if (existsSync(out)) rmSync(out);
        await record(round, launches);
      } finally {
        await removeWorkload(engine, tag);
        await run(dockerArgv(engine.socket, [])[0]!, [...dockerArgv(engine.socket, []).slice(1), 'rmi', '-f', `${address}/${REPO}:gzip-${round}`]).catch(
          () => undefined,
        );
      }
    }
  } finally {
    await stopRegistry();
  }
}

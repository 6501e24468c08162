// Service kind `docker-registry`: Debian's docker-registry (Distribution 2.x)
// with filesystem storage, on 127.0.0.1 only, its config generated into the
// run folder. Started from prepared data it is read-only (pulls never write).
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { UserError } from '../errors.js';
import { freeLoopbackPort } from './free-port.js';
import { registryConfigYaml } from './registry-config.js';
import { canConnect, loopbackTcpService, startProcess, waitUntil } from './service-process.js';
import type { ServiceStarter } from './started-service.js';
import { timedSeconds, type ServiceKind } from './service-kind.js';
import { pushOciLayout, registryHasManifest } from '../artifacts/registry-push.js';
import { CheckFailed } from '../errors.js';

export const startDockerRegistry: ServiceStarter = async (id, section, preparedDir, runDir, log) => {
  const storageDir = preparedDir ?? join(runDir, 'storage');
  if (preparedDir && !existsSync(preparedDir)) {
    throw new UserError(`prepared data of service ${id} is missing: ${preparedDir}`, { key: `services.${id}.data_from` }, 'run the prepare stage again');
  }
  mkdirSync(storageDir, { recursive: true });
  mkdirSync(runDir, { recursive: true });
  const readOnly = section.with['read_only'] === undefined ? preparedDir !== undefined : Boolean(section.with['read_only']);
  const binary = String(section.with['binary'] ?? 'docker-registry');
  const port = await freeLoopbackPort();
  const configFile = join(runDir, 'registry.yml');
  writeFileSync(configFile, registryConfigYaml({ storageDir, port, readOnly, httpSecret: randomBytes(16).toString('hex') }));
  const logFile = join(runDir, 'registry.log');
  const proc = startProcess(`registry ${id}`, binary, ['serve', configFile], logFile);
  await waitUntil(`registry ${id}`, proc, logFile, () => canConnect('127.0.0.1', port));
  log(`service ${id}: docker-registry on 127.0.0.1:${port} (pid ${proc.pid}${readOnly ? ', read-only' : ''})`);
  return loopbackTcpService(proc, port, { storage: storageDir });
};

function registryBlob(storage: string, digest: string): string {
  const hex = digest.replace(/^sha256:/, '');
  return join(storage, 'docker', 'registry', 'v2', 'blobs', 'sha256', hex.slice(0, 2), hex, 'data');
}

export const dockerRegistryKind: ServiceKind = {
  kind: 'docker-registry',
  start: startDockerRegistry,
  // Image data: manifest-referenced blobs (layers and config), compressed as pinned.
  contentPath: /^\/v2\/.+\/blobs\//,
  async prepare(ctx) {
    mkdirSync(ctx.target, { recursive: true });
    const registry = await startDockerRegistry(
      ctx.serviceId,
      { ...ctx.section, with: { ...ctx.section.with, read_only: false } },
      ctx.target,
      ctx.runDir,
      ctx.log,
    );
    const out: Awaited<ReturnType<NonNullable<ServiceKind['prepare']>>> = { preparations: [], images: {} };
    try {
      for (const [imageId, img] of Object.entries(ctx.pins.images)) {
        const address = registry.endpoint.address!;
        const seconds = await timedSeconds(() => pushOciLayout(join(ctx.pinDir, img.ociDir), address, img.repository, ctx.tag, ctx.signal));
        if (!(await registryHasManifest(address, img.repository, img.manifestDigest))) {
          throw new CheckFailed(`registry ${ctx.serviceId} does not serve ${img.repository}@${img.manifestDigest} after the push of ${imageId}`);
        }
        out.preparations.push({ service: ctx.serviceId, artifact: imageId, operation: 'push OCI image into the registry mirror (skopeo copy)', seconds });
        ctx.log(`prepare: ${ctx.serviceId}: pushed ${imageId} in ${seconds.toFixed(3)} s`);
        if (ctx.section.with['estargz'] === true) {
          const { convertToEstargz, landmarkWorkloads } = await import('./estargz-images.js');
          const converted = await convertToEstargz({
            address,
            repository: img.repository,
            manifestDigest: img.manifestDigest,
            workloads: landmarkWorkloads(imageId, ctx.cohorts),
            runDir: join(ctx.runDir, `estargz-${imageId}`),
            log: (line) => ctx.log(`prepare: ${ctx.serviceId}: ${line}`),
            signal: ctx.signal,
          });
          for (const s of converted.seconds) out.preparations.push({ service: ctx.serviceId, artifact: imageId, operation: s.what, seconds: s.seconds });
          out.images[imageId] = { estargz_digest: converted.plain, estargz_cohort_digests: converted.byCohort };
        }
      }
    } finally {
      await registry.stop();
    }
    return out;
  },
  storedArtifacts(storage, imageId, pin) {
    const hex = (d: string) => d.replace(/^sha256:/, '');
    return [pin.manifestDigest, pin.configDigest, ...pin.layers.map((l) => l.digest)].map((d) => ({
      name: `${imageId}: blob ${d}`,
      file: registryBlob(storage, d),
      sha256: hex(d),
    }));
  },
};

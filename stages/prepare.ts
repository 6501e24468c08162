// prepare: imports every pinned image into every service that serves images
// and freezes the services' data folders (outputs/services/<service id>/):
// a registry mirror gets the OCI image pushed with its pinned digests; a file
// server gets the erofs image built again with mkfs.erofs (and must match its
// pin byte for byte). Each operation's wall time is one observation in
// observations/preparation.json, reported apart from client timing.
import { mkdirSync, readFileSync, statSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { StageContext, StageDefinition } from '../harness/contract/stage.js';
import type { ServiceSection } from '../harness/config/pipeline-config.js';
import { CheckFailed, UserError } from '../harness/errors.js';
import { sha256File } from '../harness/digest/sha256.js';
import { startService } from '../harness/services/service-kinds.js';
import { pushOciLayout, registryHasManifest } from '../harness/artifacts/registry-push.js';
import { buildErofsImage } from '../harness/artifacts/erofs-image.js';
import { readExchange, type PreparationCost, type PreparedImages } from '../harness/contract/exchange-files.js';

function findPins(ctx: StageContext) {
  const found = readExchange(ctx.inputs, 'pins.json');
  if (!found) throw new UserError(`stage ${ctx.id} needs a pin stage`, { key: `stages.${ctx.id}.needs` }, 'add the pin stage to needs');
  return { dir: found.dir, pins: found.value };
}

async function timed(fn: () => Promise<void>): Promise<number> {
  const t0 = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

const prepare: StageDefinition = {
  kind: 'prepare',
  description: 'Imports the pinned images into each service (registry push, erofs build for the file server), timing each operation.',
  reads: ['artifacts', 'services'],
  async run(ctx) {
    const { dir: pinDir, pins } = findPins(ctx);
    const preparations: PreparationCost[] = [];
    const images: PreparedImages['images'] = {};
    for (const [imageId, img] of Object.entries(pins.images)) {
      images[imageId] = { repository: img.repository, manifest_digest: img.manifestDigest, config_digest: img.configDigest, config_size: img.configSize };
    }
    const tag = String(ctx.params['tag'] ?? 'pinned');
    for (const [serviceId, section] of Object.entries(ctx.config.services) as [string, ServiceSection][]) {
      if (section.data_from !== ctx.id) continue;
      const target = join(ctx.outputDir, 'services', serviceId);
      if (section.kind === 'docker-registry') {
        mkdirSync(target, { recursive: true });
        const runDir = join(ctx.workDir, 'run', serviceId);
        rmSync(runDir, { recursive: true, force: true });
        mkdirSync(runDir, { recursive: true });
        const registry = await startService(serviceId, { ...section, with: { ...section.with, read_only: false } }, target, runDir, ctx.log);
        try {
          for (const [imageId, img] of Object.entries(pins.images)) {
            const address = registry.endpoint.address!;
            const seconds = await timed(() => pushOciLayout(join(pinDir, img.ociDir), address, img.repository, tag, ctx.signal));
            if (!(await registryHasManifest(address, img.repository, img.manifestDigest))) {
              throw new CheckFailed(`registry ${serviceId} does not serve ${img.repository}@${img.manifestDigest} after the push of ${imageId}`);
            }
            preparations.push({ service: serviceId, artifact: imageId, operation: 'push OCI image into the registry mirror (skopeo copy)', seconds });
            ctx.log(`prepare: ${serviceId}: pushed ${imageId} in ${seconds.toFixed(3)} s`);
          }
        } finally {
          await registry.stop();
        }
      } else if (section.kind === 'nginx-files') {
        mkdirSync(target, { recursive: true });
        for (const [imageId, img] of Object.entries(pins.images)) {
          const file = `${imageId}.erofs`;
          const out = join(target, file);
          const seconds = await timed(() => buildErofsImage(join(pinDir, img.tarFile), out, ctx.signal));
          const sha = await sha256File(out);
          if (sha !== img.erofsSha256) {
            throw new CheckFailed(`erofs image of ${imageId} built for ${serviceId} differs from its pin`, [`pinned ${img.erofsSha256}`, `built  ${sha}`]);
          }
          images[imageId] = { ...images[imageId]!, erofs_file: file, erofs_bytes: statSync(out).size };
          preparations.push({ service: serviceId, artifact: imageId, operation: 'build erofs image (tar extract + mkfs.erofs)', seconds });
          ctx.log(`prepare: ${serviceId}: built ${file} in ${seconds.toFixed(3)} s`);
        }
      }
    }
    // Wall times are observations: a prepare rerun with the same products reruns no sampling.
    writeFileSync(join(ctx.observationsDir, 'preparation.json'), JSON.stringify(preparations, null, 2) + '\n');
    writeFileSync(join(ctx.outputDir, 'images.json'), JSON.stringify({ images } satisfies PreparedImages, null, 2) + '\n');
  },
};

export default prepare;

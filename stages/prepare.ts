// prepare: imports every pinned image into every service that serves images
// and freezes the services' data folders (outputs/services/<service id>/):
// a registry mirror gets the OCI image pushed with its pinned digests; a file
// server gets the erofs image built again with mkfs.erofs (and must match its
// pin byte for byte). Each operation's wall time is one observation in
// observations/preparation.json, reported apart from client timing.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StageContext, StageDefinition } from '../harness/contract/stage.js';
import { imageKeyConfig } from '../harness/artifacts/image-key.js';
import type { ServiceSection } from '../harness/config/pipeline-config.js';
import { UserError } from '../harness/errors.js';
import { serviceKind } from '../harness/services/service-kinds.js';
import { readExchange, missingInput, type PreparationCost, type PreparedImages } from '../harness/contract/exchange-files.js';

function findPins(ctx: StageContext) {
  const found = readExchange(ctx.inputs, 'pins.json');
  // Only services of kind command prepare without images: their prepare command needs no pin.
  const needsImages = Object.values(ctx.config.services).some((s) => s.data_from === ctx.id && s.kind !== 'command');
  if (!found && !needsImages) return { dir: ctx.workDir, pins: { images: {}, binaries: [], kernel: '', node: process.version } };
  if (!found) throw missingInput(ctx, 'pins.json', 'pin');
  return { dir: found.dir, pins: found.value };
}

/** The images and services as they enter the key; the cohorts' images and commands only when a service converts to eStargz (a landmark records a cohort's start-up), so a cohort's description or a new cohort changes no other pipeline's preparation. */
function prepareKeyConfig(slice: Record<string, unknown>, pipelineDir: string): Record<string, unknown> {
  const { cohorts, ...rest } = imageKeyConfig(slice, pipelineDir);
  const services = Object.values((slice['services'] ?? {}) as Record<string, { with?: Record<string, unknown> }>);
  if (!services.some((s) => s.with?.['estargz'] === true)) return rest;
  const byId = (cohorts ?? {}) as Record<string, { image?: string; command?: unknown }>;
  return { ...rest, cohorts: Object.fromEntries(Object.entries(byId).map(([id, c]) => [id, { image: c.image ?? null, command: c.command ?? null }])) };
}

const prepare: StageDefinition = {
  kind: 'prepare',
  description: 'Imports the pinned images into each service that prepares data (registry push, erofs build for the file server), timing each operation.',
  reads: ['artifacts', 'services', 'cohorts'],
  keyConfig: prepareKeyConfig,
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
      const kind = serviceKind(serviceId, section);
      if (!kind.prepare)
        throw new UserError(`service kind ${section.kind} has no prepared data`, { key: `services.${serviceId}.data_from` }, 'remove data_from');
      const runDir = join(ctx.workDir, 'run', serviceId);
      rmSync(runDir, { recursive: true, force: true });
      mkdirSync(runDir, { recursive: true });
      const done = await kind.prepare({
        serviceId,
        section,
        target: join(ctx.outputDir, 'services', serviceId),
        runDir,
        pins,
        pinDir,
        pipelineDir: ctx.pipelineDir,
        tag,
        cohorts: ctx.config.cohorts,
        log: ctx.log,
        signal: ctx.signal,
      });
      preparations.push(...done.preparations);
      for (const [imageId, fields] of Object.entries(done.images)) images[imageId] = { ...images[imageId]!, ...fields };
    }
    // Wall times are observations: a prepare rerun with the same products reruns no sampling.
    writeFileSync(join(ctx.observationsDir, 'preparation.json'), JSON.stringify(preparations, null, 2) + '\n');
    writeFileSync(join(ctx.outputDir, 'images.json'), JSON.stringify({ images } satisfies PreparedImages, null, 2) + '\n');
  },
};

export default prepare;

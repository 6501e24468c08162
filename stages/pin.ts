// pin: builds every image artifact and freezes it by content (tar, OCI layout,
// erofs image, with their digests), and records the version and sha256 of
// every binary a path runs and the kernel release. Built artifacts are cached
// under <data>/artifacts/<recipe hash>/, so a forced re-pin never rebuilds.
import { execFileSync } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StageContext, StageDefinition } from '../harness/contract/stage.js';
import { sha256File } from '../harness/digest/sha256.js';
import { imageRecipes, recipeHash, type ImageRecipe } from '../harness/artifacts/image-recipe.js';
import { buildImageTar } from '../harness/artifacts/build-image-tar.js';
import { buildOciLayout } from '../harness/artifacts/oci-layout.js';
import type { ImagePin, OciImagePin, Pins } from '../harness/contract/exchange-files.js';
import { buildErofsImage } from '../harness/artifacts/erofs-image.js';
import { pinBinaries, kernelRelease, binaryVersion, BINARIES, whichBinary } from '../harness/artifacts/binary-pins.js';
import { cacheDirFor, fillCache, linkFile, linkTree, readCacheMeta } from '../harness/artifacts/artifact-cache.js';

interface CachedImage extends OciImagePin {
  tarSha256: string;
  tarBytes: number;
  erofsSha256: string;
  erofsBytes: number;
  recipeHash: string;
}

function toolVersions(recipe: ImageRecipe): Record<string, string> {
  const spec = (name: string) => BINARIES.find((b) => b.name === name)!;
  const versionOf = (name: string): string => {
    const p = whichBinary(name, spec(name).path);
    return p ? binaryVersion(p, spec(name)) : 'missing';
  };
  const tools: Record<string, string> = {
    zlib: process.versions.zlib ?? '',
    mkfsErofs: versionOf('mkfs.erofs'),
    tar: execFileSync('tar', ['--version'], { encoding: 'utf8' }).split('\n')[0]!,
  };
  if (recipe.kind === 'mmdebstrap') tools['mmdebstrap'] = versionOf('mmdebstrap');
  return tools;
}

async function buildImage(ctx: StageContext, recipe: ImageRecipe, hash: string, dir: string): Promise<CachedImage> {
  const tarFile = join(dir, 'image.tar');
  const started = Date.now();
  await buildImageTar(recipe, tarFile, ctx.log, ctx.signal);
  const tarSha256 = await sha256File(tarFile);
  ctx.log(`pin: ${recipe.id}: tar ${statSync(tarFile).size} bytes in ${((Date.now() - started) / 1000).toFixed(1)} s; building OCI layout and erofs image`);
  const oci = await buildOciLayout(tarFile, tarSha256, join(dir, 'oci'));
  const erofsFile = join(dir, 'image.erofs');
  await buildErofsImage(tarFile, erofsFile, ctx.signal);
  return {
    ...oci,
    tarSha256,
    tarBytes: statSync(tarFile).size,
    erofsSha256: await sha256File(erofsFile),
    erofsBytes: statSync(erofsFile).size,
    recipeHash: hash,
  };
}

const pin: StageDefinition = {
  kind: 'pin',
  description: 'Builds the images (mmdebstrap or busybox-static), freezes tar, OCI layout and erofs image by digest, and pins every binary a path runs.',
  reads: ['artifacts'],
  async run(ctx) {
    const sourceDateEpoch = Number(ctx.params['source_date_epoch'] ?? 1700000000);
    const rebuild = ctx.params['rebuild'] === true;
    const images: Record<string, ImagePin> = {};
    for (const recipe of imageRecipes(ctx.config.artifacts, sourceDateEpoch)) {
      if (ctx.signal.aborted) throw ctx.signal.reason;
      const hash = recipeHash(recipe, toolVersions(recipe));
      const cache = cacheDirFor(ctx.dataDir, hash);
      let meta = rebuild ? null : readCacheMeta<CachedImage>(cache);
      if (meta) ctx.log(`pin: ${recipe.id}: reusing the build cached in ${cache}`);
      else meta = await fillCache(cache, (tmp) => buildImage(ctx, recipe, hash, tmp));
      const outDir = join(ctx.outputDir, 'images', recipe.id);
      mkdirSync(outDir, { recursive: true });
      linkFile(join(cache, 'image.tar'), join(outDir, 'image.tar'));
      linkFile(join(cache, 'image.erofs'), join(outDir, 'image.erofs'));
      linkTree(join(cache, 'oci'), join(outDir, 'oci'));
      images[recipe.id] = {
        ...meta,
        kind: recipe.kind,
        repository: recipe.repository,
        tarFile: `images/${recipe.id}/image.tar`,
        ociDir: `images/${recipe.id}/oci`,
        erofsFile: `images/${recipe.id}/image.erofs`,
      };
      ctx.log(`pin: ${recipe.id}: manifest ${meta.manifestDigest}, layer ${meta.layers[0]!.size} bytes, erofs ${meta.erofsBytes} bytes`);
    }
    const binaries = await pinBinaries();
    const pins: Pins = { images, binaries, kernel: kernelRelease(), node: process.version };
    writeFileSync(join(ctx.outputDir, 'pins.json'), JSON.stringify(pins, null, 2) + '\n');
  },
};

export default pin;

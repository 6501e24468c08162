// pin: builds every image artifact, or copies the user's own (registry,
// oci-archive, docker-archive, oci-layout: checked against its pinned digest),
// and freezes it by content (tar, OCI layout, erofs image, with their
// digests), and records the version and sha256 of every binary a path runs
// and the kernel release. Artifacts are cached under <data>/artifacts/<hash>/,
// so a forced re-pin never rebuilds. A user's image enters the key by its
// digest (or the content hash of its file), never by its path or host.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { parseYamlSource, positionOf } from '../harness/config/yaml-source.js';
import type { ErrorPlace } from '../harness/errors.js';
import { join, relative } from 'node:path';
import { canonicalJson } from '../harness/digest/canonical-json.js';
import { sha256Hex } from '../harness/digest/sha256.js';
import { imageSources, sourceKeyOf, type ImageSource } from '../harness/artifacts/image-source.js';
import { imageKeyConfig, sourceContentSha256 } from '../harness/artifacts/image-key.js';
import { importImage, type ImportedImage } from '../harness/artifacts/import-image.js';
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

function toolVersionsFor(names: string[]): Record<string, string> {
  return Object.fromEntries(
    names.map((name) => {
      const spec = BINARIES.find((b) => b.name === name)!;
      const p = whichBinary(name, spec.path);
      return [name, p ? binaryVersion(p, spec) : 'missing'];
    }),
  );
}

async function pinImported(ctx: StageContext, src: ImageSource, rebuild: boolean): Promise<ImagePin> {
  const tools = toolVersionsFor(['skopeo', 'umoci', 'mkfs.erofs']);
  const hash = sha256Hex(canonicalJson({ format: 1, source: sourceKeyOf(src, () => sourceContentSha256(src)), tools }));
  const cache = cacheDirFor(ctx.dataDir, hash);
  const place = placeOf(ctx.pipelineFile, ['artifacts', 'images', src.id, keyOfLocation(src)]);
  let meta = rebuild ? null : readCacheMeta<ImportedImage>(cache);
  if (meta) ctx.log(`pin: ${src.id}: reusing the copy cached in ${cache}`);
  else meta = await fillCache(cache, (tmp) => importImage(src, place, tmp, ctx.log, ctx.signal));
  const outDir = join(ctx.outputDir, 'images', src.id);
  mkdirSync(outDir, { recursive: true });
  linkFile(join(cache, 'image.tar'), join(outDir, 'image.tar'));
  linkFile(join(cache, 'image.erofs'), join(outDir, 'image.erofs'));
  linkTree(join(cache, 'oci'), join(outDir, 'oci'));
  return {
    ...meta,
    recipeHash: hash,
    kind: src.kind,
    repository: src.repository,
    tarFile: `images/${src.id}/image.tar`,
    ociDir: `images/${src.id}/oci`,
    erofsFile: `images/${src.id}/image.erofs`,
  };
}

/** file:line:col and key of an image's key in the pipeline file, for an error found while pinning. */
function placeOf(pipelineFile: string, path: string[]): ErrorPlace {
  const file = relative(process.cwd(), pipelineFile) || pipelineFile;
  const key = path.join('.');
  try {
    const pos = positionOf(parseYamlSource(file, readFileSync(pipelineFile, 'utf8')), path);
    return { file, line: pos.line, col: pos.col, key };
  } catch {
    return { file, key };
  }
}

function keyOfLocation(src: ImageSource): string {
  if (src.kind === 'registry') return 'reference';
  return src.digest ? 'digest' : src.kind === 'oci-layout' ? 'path' : 'file';
}

const pin: StageDefinition = {
  kind: 'pin',
  description:
    'Builds the images (mmdebstrap or busybox-static) or copies your own (registry, oci-archive, docker-archive, oci-layout, by digest), freezes tar, OCI layout and erofs image by digest, and pins every binary a path runs.',
  reads: ['artifacts'],
  keyConfig: imageKeyConfig,
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
    const sources: Record<string, { kind: string; from: string }> = {};
    for (const src of imageSources(ctx.config.artifacts, ctx.pipelineDir)) {
      if (ctx.signal.aborted) throw ctx.signal.reason;
      const p = await pinImported(ctx, src, rebuild);
      images[src.id] = p;
      sources[src.id] = { kind: src.kind, from: src.kind === 'registry' ? src.location : relative(ctx.pipelineDir, src.location) || '.' };
      const s = p.source!;
      ctx.log(
        `pin: ${src.id}: ${s.indexDigest ? `index ${s.indexDigest}, ${s.platform} manifest ${s.platformManifestDigest}` : `manifest ${s.sourceDigest}`}` +
          `${p.manifestDigest !== s.platformManifestDigest ? ` (OCI copy ${p.manifestDigest})` : ''}, ${p.layers.length} layers, erofs ${p.erofsBytes} bytes`,
      );
    }
    // Where the images were read from is an observation: moving an archive changes no product.
    writeFileSync(join(ctx.observationsDir, 'sources.json'), JSON.stringify(sources, null, 2) + '\n');
    const binaries = await pinBinaries();
    const pins: Pins = { images, binaries, kernel: kernelRelease(), node: process.version };
    writeFileSync(join(ctx.outputDir, 'pins.json'), JSON.stringify(pins, null, 2) + '\n');
  },
};

export default pin;

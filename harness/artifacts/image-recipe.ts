// Pure: what an image artifact is built from (pipeline.yaml artifacts.images.<id>),
// and the hash of that recipe that names its build cache folder.
import { canonicalJson } from '../digest/canonical-json.js';
import { sha256Hex } from '../digest/sha256.js';
import { isImportedKind } from './image-source.js';

export type ImageRecipe =
  | { id: string; kind: 'mmdebstrap'; suite: string; variant: string; include: string[]; mirror: string; sourceDateEpoch: number; repository: string }
  | { id: string; kind: 'busybox-static'; busybox: string; osRelease: string; repository: string };

/** Bump when the way tars, layers or erofs images are made changes. */
export const IMAGE_FORMAT_VERSION = 1;

export function imageRecipes(artifacts: Record<string, unknown>, sourceDateEpoch: number): ImageRecipe[] {
  const images = (artifacts['images'] ?? {}) as Record<string, Record<string, unknown>>;
  const mirror = String(artifacts['mirror'] ?? 'http://deb.debian.org/debian');
  // Images the user brings (registry, archives, layouts) are read by image-source.ts, not built.
  return Object.entries(images)
    .filter(([, img]) => !isImportedKind(img['kind']))
    .map(([id, img]) => {
      const repository = String(img['repository'] ?? `benchgraph/${id}`);
      if (img['kind'] === 'busybox-static') {
        return {
          id,
          kind: 'busybox-static',
          busybox: String(img['busybox'] ?? '/bin/busybox'),
          osRelease: String(img['os_release'] ?? 'PRETTY_NAME="busybox-static"\nNAME="busybox"\nID=busybox\n'),
          repository,
        };
      }
      return {
        id,
        kind: 'mmdebstrap',
        suite: String(img['suite'] ?? 'bookworm'),
        variant: String(img['variant'] ?? 'minbase'),
        include: ((img['include'] ?? []) as unknown[]).map(String).sort(),
        mirror: String(img['mirror'] ?? mirror),
        sourceDateEpoch,
        repository,
      };
    });
}

/**
 * Hash naming the build cache of a recipe: the recipe without its id and
 * repository (which do not change the bytes), the format version and the
 * digests/versions of the tools that make the bytes.
 */
export function recipeHash(recipe: ImageRecipe, tools: Record<string, string>): string {
  const { id: _id, repository: _repo, ...bytesRecipe } = recipe;
  return sha256Hex(canonicalJson({ format: IMAGE_FORMAT_VERSION, recipe: bytesRecipe, tools }));
}

// Units whose pinned content is byte-identical, said on the first screen
// beside the comparison: two images brought in two formats (an OCI archive
// and a docker-archive of one image) pin to the same root file system, so a
// difference between their units is not the images' content. Pure.
import { paragraph, type Block } from '../document/document-model.js';

/** Groups of units (cohorts) whose images have the same pinned content (root file system tar sha256), two or more units each. */
export function identicalUnits(
  cohorts: Readonly<Record<string, { image?: string | null } | undefined>> | undefined,
  images: Readonly<Record<string, { tarSha256?: string }>> | undefined,
): { units: string[]; images: string[]; sha256: string }[] {
  const bySha = new Map<string, { units: string[]; images: Set<string> }>();
  for (const [unit, c] of Object.entries(cohorts ?? {})) {
    const image = c?.image ?? null;
    const sha = image ? images?.[image]?.tarSha256 : undefined;
    if (!image || !sha) continue;
    const g = bySha.get(sha) ?? { units: [], images: new Set<string>() };
    g.units.push(unit);
    g.images.add(image);
    bySha.set(sha, g);
  }
  return [...bySha.entries()]
    .filter(([, g]) => g.units.length > 1 && g.images.size > 1)
    .map(([sha256, g]) => ({ units: g.units, images: [...g.images], sha256 }));
}

/** The first-screen sentence for each group of units with identical pinned content; nothing when there is none. */
export function identicalContentBlocks(...args: Parameters<typeof identicalUnits>): Block[] {
  return identicalUnits(...args).map((g) =>
    paragraph(
      `The images ${g.images.map((i) => `\`${i}\``).join(' and ')} are byte-identical after pin (root file system tar sha256 ${g.sha256.slice(0, 12)}…), ` +
        `so a difference between ${g.units.join(' and ')} is not the images' content: the pinned content of both is the same.`,
    ),
  );
}

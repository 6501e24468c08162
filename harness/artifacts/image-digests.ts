// Effects: re-checks a pinned image by its digests (`pipeline audit`): the
// manifest the layout's index.json tags `image` is the pinned one, and the
// manifest, config and every layer blob hash to the digests that name them.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sha256File } from '../digest/sha256.js';
import type { ImagePin } from '../contract/exchange-files.js';
import { taggedEntry, type ManifestDoc } from './oci-manifest.js';

export interface DigestFinding {
  file: string;
  problem: 'missing' | 'changed';
}

/** Checks one image of pins.json (paths relative to the pin stage's products); returns the blobs checked and what differs. */
export async function checkImageDigests(pinDir: string, pin: ImagePin): Promise<{ checked: number; findings: DigestFinding[] }> {
  const layout = join(pinDir, pin.ociDir);
  const findings: DigestFinding[] = [];
  const indexFile = join(layout, 'index.json');
  if (!existsSync(indexFile)) return { checked: 0, findings: [{ file: indexFile, problem: 'missing' }] };
  const entry = taggedEntry(JSON.parse(readFileSync(indexFile, 'utf8')) as ManifestDoc, 'image');
  if (entry?.digest !== pin.manifestDigest) findings.push({ file: indexFile, problem: 'changed' });
  const digests = [pin.manifestDigest, pin.configDigest, ...pin.layers.map((l) => l.digest)];
  for (const d of digests) {
    const file = join(layout, 'blobs', 'sha256', d.replace(/^sha256:/, ''));
    if (!existsSync(file)) findings.push({ file, problem: 'missing' });
    else if (`sha256:${await sha256File(file)}` !== d) findings.push({ file, problem: 'changed' });
  }
  return { checked: digests.length + 1, findings };
}

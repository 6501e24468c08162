// Cross-key rules of artifacts.images: which keys each image kind takes, the
// ones it needs, a registry reference pinned by digest, plain HTTP only on
// loopback, and an archive or layout that exists where the file says.
import { isAbsolute, join, resolve } from 'node:path';
import type { Finding, Rule } from './rule-types.js';
import { isLoopbackHost, referenceDigest, referenceHost } from './image-reference.js';

const KEYS_OF_KIND: Record<string, { allowed: string[]; required: string[] }> = {
  mmdebstrap: { allowed: ['suite', 'variant', 'include', 'mirror'], required: [] },
  'busybox-static': { allowed: ['busybox', 'os_release'], required: [] },
  registry: { allowed: ['reference', 'platform', 'tls_verify'], required: ['reference'] },
  'oci-archive': { allowed: ['file', 'digest', 'platform'], required: ['file'] },
  'docker-archive': { allowed: ['file', 'digest'], required: ['file'] },
  'oci-layout': { allowed: ['path', 'tag', 'digest', 'platform'], required: ['path', 'tag'] },
};
const COMMON = ['kind', 'repository'];

export const imageKeyRules: Rule = (value, _kinds, ctx) => {
  const images = ((value['artifacts'] as Record<string, unknown> | undefined)?.['images'] ?? {}) as Record<string, Record<string, unknown>>;
  const out: Finding[] = [];
  for (const [id, img] of Object.entries(images)) {
    const kind = String(img['kind'] ?? 'mmdebstrap');
    const spec = KEYS_OF_KIND[kind];
    if (!spec) continue; // the schema's enum names the valid kinds
    const at = (key: string) => ['artifacts', 'images', id, key];
    for (const key of Object.keys(img)) {
      if (COMMON.includes(key) || spec.allowed.includes(key) || !ctx.written(at(key))) continue;
      const owners = Object.entries(KEYS_OF_KIND)
        .filter(([, s]) => s.allowed.includes(key))
        .map(([k]) => k);
      out.push({
        path: at(key),
        message: `kind ${kind} takes no '${key}'${owners.length ? ` (it belongs to kind ${owners.join(', ')})` : ''}`,
        hint: `kind ${kind} takes: ${[...COMMON, ...spec.allowed].join(', ')}`,
      });
    }
    for (const key of spec.required) {
      if (img[key] === undefined)
        out.push({
          path: ['artifacts', 'images', id],
          message: `kind ${kind} needs '${key}'`,
          hint: kind === 'oci-layout' ? 'oci-layout takes path: (the folder holding index.json) and tag: (its ref name)' : `add ${key}:`,
        });
    }
    if (kind === 'registry' && typeof img['reference'] === 'string') {
      const ref = img['reference'];
      if (!referenceDigest(ref))
        out.push({
          path: at('reference'),
          message: `'${ref}' is not pinned by digest`,
          hint: `append @sha256:… to it; find the digest with: skopeo inspect --format '{{.Digest}}' docker://${ref}${isLoopbackHost(referenceHost(ref)) ? ' --tls-verify=false' : ''}`,
        });
      if (img['tls_verify'] === false && !isLoopbackHost(referenceHost(ref)))
        out.push({
          path: at('tls_verify'),
          message: `tls_verify: false is allowed only for a loopback registry, not ${referenceHost(ref) ?? 'the default registry'}`,
          hint: 'remove tls_verify, or mirror the image to a registry on 127.0.0.1',
        });
    }
    for (const key of ['file', 'path'] as const) {
      const rel = img[key];
      if (!spec.allowed.includes(key) || typeof rel !== 'string') continue;
      const abs = isAbsolute(rel) ? rel : resolve(ctx.pipelineDir, rel);
      const want = key === 'path' ? join(abs, 'index.json') : abs;
      if (!ctx.exists(want))
        out.push({
          path: at(key),
          message: key === 'path' ? `no OCI layout at ${abs} (no index.json)` : `no such file: ${abs}`,
          hint:
            kind === 'docker-archive'
              ? 'write it with: docker save -o FILE IMAGE (paths are relative to the pipeline file)'
              : kind === 'oci-archive'
                ? 'write it with: skopeo copy docker://REF oci-archive:FILE (paths are relative to the pipeline file)'
                : 'write it with: skopeo copy docker://REF oci:DIR:TAG (paths are relative to the pipeline file)',
        });
    }
  }
  return out;
};

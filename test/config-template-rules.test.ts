// The template rule's image fields are the fields a launch gets (our own
// logic): the object literals below are typed as the pin and prepare stages'
// records, so a field added to either type fails to compile here until it is
// listed, and the rule accepts every field launchValues would flatten.
import test from 'ava';
import type { ImagePin, PreparedImages } from '../harness/contract/exchange-files.js';
import { flattenValues } from '../harness/experiment/command-template.js';
import { IMAGE_TEMPLATE_FIELDS } from '../harness/config/template-rules.js';

const pin: Required<Omit<ImagePin, 'source' | 'layers'>> = {
  manifestDigest: 'sha256:m',
  manifestSize: 1,
  configDigest: 'sha256:c',
  configSize: 1,
  tarSha256: 't',
  tarBytes: 1,
  erofsSha256: 'e',
  erofsBytes: 1,
  recipeHash: 'r',
  tarFile: 'a.tar',
  ociDir: 'oci',
  erofsFile: 'a.erofs',
  repository: 'r',
  kind: 'mmdebstrap',
};
const prepared: Required<PreparedImages['images'][string]> = {
  repository: 'r',
  manifest_digest: 'sha256:m',
  config_digest: 'sha256:c',
  config_size: 1,
  erofs_file: 'f',
  erofs_bytes: 1,
  estargz_digest: 'sha256:e',
  // per cohort: not a template field (a path names its cohort's eStargz image by tag, estargz-{cohort})
  estargz_cohort_digests: {},
};

test('every scalar field of an image pin and a prepared image, and the id and folder, is a known image placeholder; nothing else is listed', (t) => {
  const fields = Object.keys(flattenValues('', { id: 'x', dir: '/d', ...pin, ...prepared })).sort();
  t.deepEqual([...IMAGE_TEMPLATE_FIELDS].sort(), fields);
});

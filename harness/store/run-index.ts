// Effects: the index of the runs in a repository is its tag list: one tag per
// run (`<experiment>_<run digest>`), written once by the push that made it.
// No shared index is ever rewritten, so two concurrent pushes cannot lose
// each other's run. Resolves a run id (a prefix of a run digest, or a tag).
import { UserError } from '../errors.js';
import type { OciClient } from './oci-client.js';
import { MEDIA_TYPES, parseRunTag, RUN_CONFIG_FORMAT, type OciManifest, type RunConfig } from './run-artifact.js';
import { sha256Hex } from '../digest/sha256.js';

export interface RemoteRun {
  tag: string;
  experiment: string;
  runDigest: string;
}

export async function listTags(client: OciClient): Promise<string[]> {
  const tags: string[] = [];
  let target: string | null = client.path('tags/list?n=1000');
  while (target) {
    const a = await client.send('GET', target);
    if (a.status === 404) return tags; // no such repository yet: no runs
    if (a.status !== 200) throw client.unexpected('GET', target, a, 'cannot list the runs');
    tags.push(...((JSON.parse(a.body.toString('utf8')) as { tags?: string[] | null }).tags ?? []));
    const link = a.headers.link;
    const next = typeof link === 'string' ? /<([^>]+)>\s*;\s*rel="?next"?/.exec(link) : null;
    target = next ? next[1]! : null;
  }
  return tags;
}

export async function listRuns(client: OciClient, experiment: string | null = null): Promise<RemoteRun[]> {
  return (await listTags(client))
    .map((tag) => ({ tag, parsed: parseRunTag(tag) }))
    .filter((t) => t.parsed && (experiment === null || t.parsed.experiment === experiment))
    .map((t) => ({ tag: t.tag, ...t.parsed! }))
    .sort((a, b) => a.tag.localeCompare(b.tag));
}

/** The one run whose digest starts with `id` (or whose tag is `id`); a UserError when none or several. */
export async function resolveRun(client: OciClient, id: string, shown: string): Promise<RemoteRun> {
  const runs = await listRuns(client);
  const hits = runs.filter((r) => r.tag === id || r.runDigest.startsWith(id));
  if (hits.length === 1) return hits[0]!;
  if (!hits.length)
    throw new UserError(`no run ${id} in ${client.registry}/${client.repository}`, { key: shown }, '`pipeline history REF` lists the runs there');
  throw new UserError(
    `run id ${id} names ${hits.length} runs in ${client.registry}/${client.repository}`,
    { key: shown },
    'give more digits of the run digest',
  );
}

export interface FetchedManifest {
  manifest: OciManifest;
  digest: string;
}

export async function fetchManifest(client: OciClient, reference: string): Promise<FetchedManifest> {
  const target = client.path(`manifests/${reference}`);
  const a = await client.send('GET', target, { headers: { accept: MEDIA_TYPES.manifest } });
  if (a.status !== 200) throw client.unexpected('GET', target, a, `cannot read run ${reference}`);
  const digest = 'sha256:' + sha256Hex(a.body);
  const header = a.headers['docker-content-digest'];
  if (reference.startsWith('sha256:') && digest !== reference)
    throw new UserError(
      `the manifest served for ${reference} hashes to ${digest}`,
      { key: client.registry },
      'the registry storage is damaged: refuse this run',
    );
  if (typeof header === 'string' && header !== digest)
    throw new UserError(
      `the manifest of ${reference} hashes to ${digest}, the registry says ${header}`,
      { key: client.registry },
      'the registry storage is damaged: refuse this run',
    );
  const manifest = JSON.parse(a.body.toString('utf8')) as OciManifest;
  if (manifest.mediaType !== MEDIA_TYPES.manifest || manifest.config?.mediaType !== MEDIA_TYPES.run) {
    throw new UserError(
      `${reference} is not a benchgraph run (config ${manifest.config?.mediaType ?? 'missing'})`,
      { key: client.registry },
      'name a run `pipeline push` made',
    );
  }
  return { manifest, digest };
}

/** The run config blob, its digest checked. */
export async function fetchRunConfig(client: OciClient, manifest: OciManifest): Promise<RunConfig> {
  const target = client.path(`blobs/${manifest.config.digest}`);
  const a = await client.send('GET', target);
  if (a.status !== 200) throw client.unexpected('GET', target, a, `cannot read the run config ${manifest.config.digest}`);
  const got = 'sha256:' + sha256Hex(a.body);
  if (got !== manifest.config.digest) {
    throw new UserError(
      `blob ${manifest.config.digest} (run config) hashes to ${got}`,
      { key: client.registry },
      'the registry storage is damaged: refuse this run',
    );
  }
  const config = JSON.parse(a.body.toString('utf8')) as RunConfig;
  if (config.format !== RUN_CONFIG_FORMAT)
    throw new UserError(`run config format ${String(config.format)} is not ${RUN_CONFIG_FORMAT}`, { key: client.registry }, 'update benchgraph');
  return config;
}

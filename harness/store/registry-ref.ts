// Pure: a registry reference as the CLI takes it, `HOST[:PORT]/REPOSITORY`
// optionally followed by `@RUN` (a run id: a prefix of a run digest, or a tag),
// e.g. `127.0.0.1:5000/team/benchgraph@1c80f59c35af`.
import { UserError } from '../errors.js';

export interface RegistryRef {
  /** host[:port] as written, e.g. registry.example or 127.0.0.1:5000 */
  registry: string;
  /** the repository path, e.g. team/benchgraph */
  repository: string;
  /** the run named after `@`, or null */
  run: string | null;
}

const COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const HINT = 'write HOST[:PORT]/REPOSITORY[@RUN], e.g. registry.example/team/benchgraph@1c80f59c35af';

/** True when the text has the shape of a registry reference (its first part names a host: a dot, a port or localhost). */
export function looksLikeRegistryRef(text: string): boolean {
  const slash = text.indexOf('/');
  if (slash <= 0) return false;
  const host = text.slice(0, slash);
  return /^[A-Za-z0-9.-]+(?::\d+)?$|^\[[0-9a-fA-F:]+\](?::\d+)?$/.test(host) && (host.includes('.') || host.includes(':') || host === 'localhost');
}

export function parseRegistryRef(text: string, key: string): RegistryRef {
  if (!looksLikeRegistryRef(text)) throw new UserError(`'${text}' is not a registry reference`, { key }, HINT);
  const slash = text.indexOf('/');
  const registry = text.slice(0, slash);
  let rest = text.slice(slash + 1);
  let run: string | null = null;
  const at = rest.indexOf('@');
  if (at >= 0) {
    run = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!/^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/.test(run))
      throw new UserError(`'${run}' is not a run id`, { key }, 'a run id is the 12 hex digits `pipeline push` printed, or a tag');
  }
  if (!rest || !rest.split('/').every((c) => COMPONENT.test(c))) {
    throw new UserError(`'${rest}' is not a repository name`, { key }, 'lowercase letters, digits and . _ - between slashes, e.g. team/benchgraph');
  }
  return { registry, repository: rest, run };
}

export function formatRef(ref: RegistryRef): string {
  return `${ref.registry}/${ref.repository}${ref.run ? '@' + ref.run : ''}`;
}

/** Loopback registries are spoken to over plain HTTP unless a CA file is given (as Docker treats localhost). */
export function isLoopbackRegistry(registry: string): boolean {
  const host = registry.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

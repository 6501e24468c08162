// Credentials for a registry from the standard Docker client configuration:
// $DOCKER_CONFIG/config.json (default ~/.docker/config.json). A registry named
// in credHelpers, else the credsStore, is asked through its helper program
// `docker-credential-<name> get` (registry on stdin, {"Username","Secret"} on
// stdout); else "auths" holds base64 user:password (or identitytoken).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../errors.js';

export interface Credentials {
  username: string;
  password: string;
}

interface DockerConfig {
  auths?: Record<string, { auth?: string; username?: string; password?: string; identitytoken?: string }>;
  credsStore?: string;
  credHelpers?: Record<string, string>;
}

export function dockerConfigFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(env['DOCKER_CONFIG'] ?? join(homedir(), '.docker'), 'config.json');
}

/** The keys "auths" may use for a registry: as written, and with the https:// and http:// prefixes Docker writes. */
function keysFor(registry: string): string[] {
  return [registry, `https://${registry}`, `http://${registry}`, `https://${registry}/v1/`, `https://${registry}/v2/`];
}

export function credentialsFor(registry: string, file = dockerConfigFile()): Credentials | null {
  if (!existsSync(file)) return null;
  let config: DockerConfig;
  try {
    config = JSON.parse(readFileSync(file, 'utf8')) as DockerConfig;
  } catch (e) {
    throw new UserError(`not valid JSON: ${(e as Error).message}`, { file }, 'fix the Docker client configuration, or point DOCKER_CONFIG at another folder');
  }
  const helper = config.credHelpers?.[registry] ?? config.credsStore;
  if (helper) {
    const fromHelper = askHelper(helper, registry);
    if (fromHelper) return fromHelper;
  }
  for (const k of keysFor(registry)) {
    const entry = config.auths?.[k];
    if (!entry) continue;
    if (entry.identitytoken) return { username: '<token>', password: entry.identitytoken };
    if (entry.username && entry.password) return { username: entry.username, password: entry.password };
    if (entry.auth) {
      const text = Buffer.from(entry.auth, 'base64').toString('utf8');
      const colon = text.indexOf(':');
      if (colon < 0)
        throw new UserError(`auths.${k}.auth is not base64 of user:password`, { file, key: `auths.${k}.auth` }, `log in again: docker login ${registry}`);
      return { username: text.slice(0, colon), password: text.slice(colon + 1) };
    }
  }
  return null;
}

function askHelper(name: string, registry: string): Credentials | null {
  const program = `docker-credential-${name}`;
  const r = spawnSync(program, ['get'], { input: registry, encoding: 'utf8', timeout: 30_000 });
  if (r.error) {
    throw new UserError(
      `credential helper ${program} could not run: ${(r.error as NodeJS.ErrnoException).code ?? r.error.message}`,
      { file: dockerConfigFile(), key: 'credsStore' },
      `install ${program}, or remove it from the Docker configuration`,
    );
  }
  // A helper that knows no credentials for the registry says so and exits non-zero: anonymous access.
  if (r.status !== 0) return null;
  try {
    const out = JSON.parse(r.stdout) as { Username?: string; Secret?: string };
    if (!out.Secret) return null;
    return { username: out.Username ?? '', password: out.Secret };
  } catch {
    throw new UserError(`credential helper ${program} printed no JSON`, { key: 'credsStore' }, `run: echo ${registry} | ${program} get`);
  }
}

// A registry's answer that stops a command: one line naming the registry, the
// request, its status and error code, and a remedy (exit 2 via UserError).
import { UserError } from '../errors.js';

export class RegistryError extends UserError {
  constructor(
    readonly registry: string,
    readonly status: number | null,
    readonly code: string | null,
    message: string,
    hint: string,
  ) {
    super(message, { key: registry }, hint);
    this.name = 'RegistryError';
  }
}

/** Where a command's credentials came from, and whether the registry refused the ones it sent (a 401's remedy). */
export interface AuthContext {
  /** The Docker client configuration read ($DOCKER_CONFIG/config.json), or how the credentials were given. */
  source: string;
  /** Credentials were sent and answered 401: wrong, not missing. */
  refused: boolean;
}

/** The remedy for a status the registry answered (pure). */
export function remedyFor(status: number, registry: string, auth: AuthContext = { source: '~/.docker/config.json', refused: false }): string {
  if (status === 401)
    return auth.refused
      ? `the registry refused the credentials for ${registry} in ${auth.source}: correct the user or password there ("auths", or its credential helper)`
      : `give credentials for ${registry}: "auths" in ${auth.source} (base64 of user:password), or docker login ${registry} where a Docker daemon runs`;
  if (status === 403) return `the credentials for ${registry} may not do this: ask for push/pull rights on the repository`;
  if (status === 404) return 'check the repository name and the run id (`pipeline history REF` lists the runs)';
  if (status === 429) return 'the registry is rate-limiting: retry later';
  if (status >= 500) return 'the registry failed: retry; if it persists, read its log';
  return 'see the registry documentation for this answer';
}

/** First error of a Distribution error body `{"errors":[{"code","message"}]}`, or null. */
export function registryErrorCode(body: string): { code: string; message: string } | null {
  try {
    const e = (JSON.parse(body) as { errors?: { code?: string; message?: string }[] }).errors?.[0];
    return e?.code ? { code: e.code, message: e.message ?? '' } : null;
  } catch {
    return null;
  }
}

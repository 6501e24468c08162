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

/** The remedy for a status the registry answered (pure). */
export function remedyFor(status: number, registry: string): string {
  if (status === 401) return `log in: docker login ${registry} (or add it to "auths" in ~/.docker/config.json)`;
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

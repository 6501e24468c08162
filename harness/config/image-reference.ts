// Pure: the parts of a registry reference HOST/REPO[:TAG]@sha256:… the config rules and the pin stage read.

/** The digest after `@` in a registry reference, or null. */
export function referenceDigest(reference: string): string | null {
  const m = /@(sha256:[0-9a-f]{64})$/.exec(reference);
  return m ? m[1]! : null;
}

/** The host part of HOST/REPO…, or null when the reference has no explicit host. */
export function referenceHost(reference: string): string | null {
  const first = reference.split('/')[0]!;
  return reference.includes('/') && /[.:]|^localhost$/.test(first) ? first : null;
}

export function isLoopbackHost(host: string | null): boolean {
  if (!host) return false;
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!;
  return name === '127.0.0.1' || name === '[::1]' || name === 'localhost' || /^127\.\d+\.\d+\.\d+$/.test(name);
}

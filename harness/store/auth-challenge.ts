// Pure: parses a WWW-Authenticate header, e.g.
//   Bearer realm="https://auth.example/token",service="registry",scope="repository:team/x:pull"
//   Basic realm="Registry Realm"

export interface AuthChallenge {
  scheme: 'bearer' | 'basic' | 'other';
  params: Record<string, string>;
}

export function parseChallenge(header: string | undefined): AuthChallenge | null {
  if (!header) return null;
  const m = /^\s*(\S+)\s*(.*)$/.exec(header);
  if (!m) return null;
  const name = m[1]!.toLowerCase();
  const params: Record<string, string> = {};
  const re = /([A-Za-z_][A-Za-z0-9_-]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))/g;
  for (const p of m[2]!.matchAll(re)) params[p[1]!.toLowerCase()] = (p[2] ?? p[3] ?? '').replace(/\\(.)/g, '$1');
  return { scheme: name === 'bearer' ? 'bearer' : name === 'basic' ? 'basic' : 'other', params };
}

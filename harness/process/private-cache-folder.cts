// The user's private cache folder under the temporary folder: what the
// command caches between runs that is trusted on reading (V8 code, a loaded
// config), so it is used only when no one else can write to it (0700, owned by
// the user). One subfolder per cache.
import { mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** `<tmp>/benchgraph-cache-<uid>/<name>`, created; null when it cannot be made or others may write to it. */
export function privateCacheFolder(name: string): string | null {
  const uid = process.getuid?.() ?? 0;
  const dir = join(tmpdir(), `benchgraph-cache-${uid}`, name);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    for (const d of [dirname(dir), dir]) {
      const st = statSync(d);
      if (st.uid !== uid || (st.mode & 0o077) !== 0) return null;
    }
    return dir;
  } catch {
    return null;
  }
}

// A V8 code cache for the CommonJS modules a command loads (the yaml parser's
// 72 files, the compiled schema validators, ajv's runtime): what
// `module.enableCompileCache()` does from Node 22.1, which this project's
// Node 20 lacks. Each module is compiled with the cached data of its last
// compilation when its source is byte-for-byte the same (sha256); V8 checks
// the data itself and recompiles when it rejects it. The cache is written
// back at exit, after the command ran, so it holds the functions compiled
// lazily during the run too. ES modules (the project's own) are not covered:
// Node 20 has no hook for their cached data.
//
// The folder is private to the user (0700, owned by them, else no cache):
// cached data is trusted by V8 as compiled code. Any failure to read or
// write it only costs the compilation it would have saved.
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { privateCacheFolder } from './private-cache-folder.cjs';

interface Entry {
  sha256: string;
  data: Buffer;
}

interface InternalModule {
  exports: unknown;
  require(id: string): unknown;
  filename: string;
}

type Compile = (this: InternalModule, content: string, filename: string) => unknown;

/** Files of these folders are cached: project packages and the build's CommonJS output, never arbitrary code. */
function cacheable(filename: string): boolean {
  return /\/node_modules\/(yaml|ajv|fast-deep-equal|fast-uri|json-schema-traverse)\//.test(filename) || /\/dist\/schemas\/[^/]+\.cjs$/.test(filename);
}

/** Serialized: [u32 count] then per entry [u32 name][name][32 sha][u32 data][data]. */
function readCache(file: string): Map<string, Entry> {
  const out = new Map<string, Entry>();
  let buf: Buffer;
  try {
    buf = readFileSync(file);
  } catch {
    return out;
  }
  try {
    let at = 0;
    const count = buf.readUInt32LE(at);
    at += 4;
    for (let i = 0; i < count; i++) {
      const nameLength = buf.readUInt32LE(at);
      at += 4;
      const name = buf.toString('utf8', at, at + nameLength);
      at += nameLength;
      const sha256 = buf.toString('hex', at, at + 32);
      at += 32;
      const dataLength = buf.readUInt32LE(at);
      at += 4;
      out.set(name, { sha256, data: buf.subarray(at, at + dataLength) });
      at += dataLength;
    }
  } catch {
    out.clear(); // a torn or foreign file: start again
  }
  return out;
}

function writeCache(file: string, entries: Map<string, Entry>): void {
  const parts: Buffer[] = [];
  const count = Buffer.alloc(4);
  count.writeUInt32LE(entries.size);
  parts.push(count);
  for (const [name, e] of entries) {
    const nameBytes = Buffer.from(name, 'utf8');
    const head = Buffer.alloc(4);
    head.writeUInt32LE(nameBytes.length);
    const dataHead = Buffer.alloc(4);
    dataHead.writeUInt32LE(e.data.length);
    parts.push(head, nameBytes, Buffer.from(e.sha256, 'hex'), dataHead, e.data);
  }
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, Buffer.concat(parts), { mode: 0o600 });
  renameSync(tmp, file);
}

let installed = false;
const stats = { hits: 0, misses: 0, rejected: 0, folder: null as string | null };

/** What the cache did in this process so far (for tests and benches). */
export function compileCacheStats(): { hits: number; misses: number; rejected: number; folder: string | null } {
  return { ...stats };
}

/** Installs the cache for this process (once); a no-op when BENCHGRAPH_COMPILE_CACHE=0 or the folder is not private. */
export function installCompileCache(): void {
  if (installed || process.env['BENCHGRAPH_COMPILE_CACHE'] === '0') return;
  installed = true;
  const dir = privateCacheFolder(`compile-${process.version}-${process.arch}`);
  if (!dir) return;
  stats.folder = dir;
  const file = join(dir, 'cjs.bin');
  // Read on the first cacheable module: a command that loads none (a no-op run or status, whose config is cached) does not read it.
  let entries: Map<string, Entry> | null = null;
  const fresh: { name: string; sha256: string; script: Script }[] = [];
  const proto = (Module as unknown as { prototype: { _compile: Compile } }).prototype;
  const original = proto._compile;
  const wrap = (Module as unknown as { wrap(s: string): string }).wrap;
  proto._compile = function (this: InternalModule, content: string, filename: string): unknown {
    if (!cacheable(filename)) return original.call(this, content, filename);
    const sha256 = createHash('sha256').update(content).digest('hex');
    entries ??= readCache(file);
    const hit = entries.get(filename);
    const script = new Script(wrap(content), {
      filename,
      ...(hit && hit.sha256 === sha256 ? { cachedData: hit.data } : {}),
    });
    const usable = hit !== undefined && hit.sha256 === sha256;
    if (!usable) stats.misses++;
    else if (script.cachedDataRejected) stats.rejected++;
    else stats.hits++;
    if (!usable || script.cachedDataRejected) fresh.push({ name: filename, sha256, script });
    const fn = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    const self = this;
    const require = Object.assign((id: string) => self.require(id), {
      resolve: (request: string, options?: { paths?: string[] }) =>
        (Module as unknown as { _resolveFilename(r: string, m: unknown, main: boolean, o?: unknown): string })._resolveFilename(request, self, false, options),
      main: require_main(),
      cache: (Module as unknown as { _cache: unknown })._cache,
    });
    return fn.call(this.exports, this.exports, require, this, filename, dirname(filename));
  };
  process.once('exit', () => {
    if (fresh.length === 0 || !entries) return;
    try {
      for (const f of fresh) entries.set(f.name, { sha256: f.sha256, data: f.script.createCachedData() });
      writeCache(file, entries);
    } catch {
      // no cache this time
    }
  });
}

function require_main(): unknown {
  return (process as unknown as { mainModule?: unknown }).mainModule;
}

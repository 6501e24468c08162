// The CLI as one script: `npm run build` also compiles harness/cli/main.ts and
// every stage module, with all they import, into dist/cli-bundle.js
// (build-cli-bundle.ts: TypeScript's System.register output in one file), and
// bin/pipeline.js runs it through this loader. One file, compiled from V8's
// code cache, instead of some 60 ES modules each resolved, read and compiled
// at every start (Node 20 has no code cache for ES modules): the start-up of a
// no-op `pipeline run` or `status`. Every module exists once, in one registry,
// so `instanceof UserError` holds across modules as with the ES modules; npm
// packages and Node's built-ins are imported natively. A module sees as
// import.meta.url the URL of its compiled ES module in dist/, so paths derived
// from it (the project root, workers, createRequire) are the same.
//
// The bundle records the size and mtime of every dist/ module it holds, and a
// module runs from it only when its dist/ build still has them: the code that
// runs is the code the stage keys hash (dist/). When a module of the start-up
// graph differs (dist/ rebuilt by `tsc` alone, or edited), or the bundle is
// missing or unreadable, bin/pipeline.js runs the ES modules of dist/ instead;
// a module imported later that differs stops the command, naming the build
// step. Tests import the ES modules; the CLI tests run this path.
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Script } from 'node:vm';
import { onStartupDone } from '../process/startup-checkpoint.js';

type Namespace = Record<string | symbol, unknown>;
type Setter = (ns: Namespace) => void;
interface Declared {
  setters: (Setter | undefined)[];
  execute: () => unknown;
}
type Declare = (exportFn: (name: string | Namespace, value?: unknown) => unknown, context: ModuleContext) => Declared;
interface ModuleContext {
  id: string;
  meta: { url: string };
  import: (specifier: string) => Promise<unknown>;
}

interface ModuleRecord {
  id: string;
  deps: string[];
  declare: Declare;
  ns: Namespace;
  importers: Setter[];
  declared: Declared | null;
  /** 0 registered, 1 executing, 2 executed */
  state: 0 | 1 | 2;
  done: Promise<void> | null;
}

/** The first line of the bundle: the dist/ modules it was compiled with, to tell a stale bundle. */
export interface BundleHeader {
  format: number;
  /** Every character is ASCII (non-ASCII literals are written as \u escapes): read as latin1. */
  ascii: boolean;
  modules: Record<string, { size: number; mtimeMs: number }>;
}

/** Bump when the bundle's layout changes. */
export const BUNDLE_FORMAT = 1;
export const HEADER_PREFIX = '// benchgraph-cli-bundle ';

export class CliBundle {
  private readonly records = new Map<string, ModuleRecord>();
  private readonly external = new Map<string, Namespace>();
  /** Modules whose dist/ build was found as the bundle recorded it. */
  private readonly current = new Set<string>();
  /** file: URL of dist/, ending in a slash (ids are plain relative paths). */
  private readonly distUrl: string;

  private constructor(
    private readonly distDir: string,
    private readonly header: BundleHeader,
  ) {
    this.distUrl = `${pathToFileURL(distDir).href}/`;
  }

  /**
   * The bundle in `file` (dist/cli-bundle.js), registered but not run; null
   * when it is missing or unreadable. `cacheDir`: the folder of V8's cached
   * data, private to the user (none when null); `profile`: what the command
   * is (its name), for that cache.
   */
  static open(file: string, cacheDir: string | null, profile: string): CliBundle | null {
    let text: string;
    let header: BundleHeader;
    try {
      const bytes = readFileSync(file);
      const newline = bytes.indexOf(10);
      if (newline < 0 || bytes.toString('latin1', 0, HEADER_PREFIX.length) !== HEADER_PREFIX) return null;
      header = JSON.parse(bytes.toString('utf8', HEADER_PREFIX.length, newline)) as BundleHeader;
      if (header.format !== BUNDLE_FORMAT) return null;
      text = bytes.toString(header.ascii ? 'latin1' : 'utf8');
    } catch {
      return null;
    }
    const bundle = new CliBundle(dirname(file), header);
    const system = { register: (id: string, deps: string[], declare: Declare) => bundle.register(id, deps, declare) };
    compileWithCache(file, text, cacheDir, profile)(system);
    return bundle;
  }

  /**
   * Runs the module `id` (a path under dist/ without .js, e.g. harness/cli/main)
   * and what it imports; its exports. Null, with nothing run, when one of the
   * modules it would run differs from its dist/ build as the bundle recorded it.
   */
  async import(id: string): Promise<Namespace | null> {
    const record = this.records.get(id);
    if (!record) throw new Error(`the CLI bundle has no module ${id}`);
    const graph = new Set<string>();
    await this.loadExternals(record, graph);
    for (const m of graph) if (!this.isCurrent(m)) return null;
    this.instantiate(record);
    await this.execute(record);
    return record.ns;
  }

  private register(id: string, deps: string[], declare: Declare): void {
    const ns = Object.create(null) as Namespace;
    Object.defineProperty(ns, Symbol.toStringTag, { value: 'Module' });
    this.records.set(id, { id, deps, declare, ns, importers: [], declared: null, state: 0, done: null });
  }

  /** Node's built-ins and npm packages the module graph imports, imported natively before anything runs. */
  private async loadExternals(record: ModuleRecord, seen: Set<string>): Promise<void> {
    if (seen.has(record.id) || record.state === 2) return;
    seen.add(record.id);
    for (const dep of record.deps) {
      const inner = this.records.get(dep);
      if (inner) await this.loadExternals(inner, seen);
      else if (!this.external.has(dep)) this.external.set(dep, dep.startsWith('node:') ? builtinNamespace(dep) : ((await import(dep)) as Namespace));
    }
  }

  private instantiate(record: ModuleRecord): void {
    if (record.declared) return;
    const exportFn = (name: string | Namespace, value?: unknown): unknown => {
      if (typeof name === 'object') for (const k of Object.keys(name)) record.ns[k] = name[k];
      else record.ns[name] = value;
      for (const setter of record.importers) setter(record.ns);
      return value;
    };
    const context: ModuleContext = {
      id: record.id,
      meta: { url: `${this.distUrl}${record.id}.js` },
      import: (specifier) => this.dynamicImport(specifier),
    };
    const declared = record.declare(exportFn, context);
    record.declared = declared;
    record.deps.forEach((dep, i) => {
      const setter = declared.setters[i];
      const inner = this.records.get(dep);
      if (inner) {
        this.instantiate(inner);
        if (setter) {
          inner.importers.push(setter);
          setter(inner.ns);
        }
      } else if (setter) setter(this.external.get(dep)!);
    });
  }

  private execute(record: ModuleRecord): Promise<void> {
    if (record.state === 1) return Promise.resolve(); // a cycle: as ES modules, the importer runs first
    record.done ??= (async () => {
      record.state = 1;
      for (const dep of record.deps) {
        const inner = this.records.get(dep);
        if (inner) await this.execute(inner);
      }
      await record.declared!.execute();
      record.state = 2;
    })();
    return record.done;
  }

  /** import(x) in a bundled module: a module of the bundle by id or by its dist/ URL; anything else natively. */
  private async dynamicImport(specifier: string): Promise<unknown> {
    let id: string | null = this.records.has(specifier) ? specifier : null;
    if (!id && specifier.startsWith('file:')) {
      const rel = relative(this.distDir, fileURLToPath(specifier)).split(sep).join('/');
      id = rel.endsWith('.js') && this.records.has(rel.slice(0, -3)) ? rel.slice(0, -3) : null;
    }
    if (!id) return import(specifier);
    const ns = await this.import(id);
    if (!ns) throw new Error(`dist/${id}.js (or a module it imports) is newer than dist/cli-bundle.js: run 'npm run build'`);
    return ns;
  }

  /** The module's dist/ build has the size and mtime the bundle recorded (each module stat'ed once per command). */
  private isCurrent(id: string): boolean {
    if (this.current.has(id)) return true;
    const was = this.header.modules[id];
    const st = was ? statSync(`${this.distDir}/${id}.js`, { throwIfNoEntry: false }) : undefined;
    if (!was || !st || st.size !== was.size || st.mtimeMs !== was.mtimeMs) return false;
    this.current.add(id);
    return true;
  }
}

const requireBuiltin = createRequire(import.meta.url);

/**
 * A Node built-in as its ES module namespace would show it (its exports by
 * name, and the module as `default`), taken through require, which hands
 * back Node's loaded object: a native import() of each built-in the CLI uses
 * would go through the ES module loader (a module record and its jobs each).
 */
function builtinNamespace(specifier: string): Namespace {
  const mod = requireBuiltin(specifier) as Record<string, unknown>;
  const ns = Object.create(null) as Namespace;
  // read on use: some exports are getters that load more of Node (crypto.webcrypto, fs.ReadStream)
  for (const k of Object.keys(mod)) Object.defineProperty(ns, k, { get: () => mod[k], enumerable: true });
  ns['default'] = mod;
  Object.defineProperty(ns, Symbol.toStringTag, { value: 'Module' });
  return ns;
}

/**
 * The bundle compiled with V8's cached data of an earlier compilation when the
 * bundle file is the same (path, size and mtime in nanoseconds, as the cache's
 * header records them; V8 checks the data's own version and flags). The data
 * is written at the end of start-up (process/startup-checkpoint.ts), or at
 * exit, so it holds the functions the command's start compiled: one file per
 * command (`profile`), since each runs other functions.
 */
function compileWithCache(file: string, text: string, cacheDir: string | null, profile: string): (system: unknown) => void {
  const st = statSync(file, { bigint: true });
  const identity = JSON.stringify({ file, size: String(st.size), mtimeNs: String(st.mtimeNs) });
  // one file per bundle path (checkouts side by side keep theirs) and command
  const name = createHash('sha256').update(file).digest('hex').slice(0, 16);
  const cacheFile = cacheDir ? join(cacheDir, `cli-bundle-${name}-${profile}.bin`) : null;
  let cachedData: Buffer | undefined;
  if (cacheFile) {
    try {
      const buf = readFileSync(cacheFile);
      const length = buf.readUInt32LE(0);
      if (buf.toString('utf8', 4, 4 + length) === identity) cachedData = buf.subarray(4 + length);
    } catch {
      // none yet, or torn: compiled from the source
    }
  }
  const script = new Script(text, { filename: file, cachedData });
  if (cacheFile && (cachedData === undefined || script.cachedDataRejected)) {
    let written = false;
    const write = (): void => {
      if (written) return;
      written = true;
      try {
        const head = Buffer.from(identity, 'utf8');
        const length = Buffer.alloc(4);
        length.writeUInt32LE(head.length);
        const tmp = `${cacheFile}.${process.pid}.tmp`;
        writeFileSync(tmp, Buffer.concat([length, head, script.createCachedData()]), { mode: 0o600 });
        renameSync(tmp, cacheFile);
      } catch {
        // no cache this time
      }
    };
    // at the end of start-up (a real run: before its first stage), else at exit
    onStartupDone(write);
    process.once('exit', write);
  }
  return script.runInThisContext() as (system: unknown) => void;
}

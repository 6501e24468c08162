// The CLI as one script: `npm run build` also compiles harness/cli/main.ts and
// every stage module, with all they import, into dist/cli-bundle.js
// (build-cli-bundle.ts: TypeScript's System.register output in one file), and
// bin/pipeline.js runs it through this loader. The loader and bin/pipeline.js
// are CommonJS (.cts, bin/package.json): Node enters a CommonJS script some
// 3 ms sooner than an ES module, with no module loader to set up, and takes
// the built-ins it needs without one. One file, compiled from V8's
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
import { closeSync, fstatSync, openSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Script } from 'node:vm';
import { onStartupDone, startupIsOver } from '../process/startup-checkpoint.cjs';

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
  /** By module id; `ext` '.cjs' for a CommonJS module (a .cts source), else its build is `<id>.js`. */
  modules: Record<string, { size: number; mtimeMs: number; ext?: '.cjs' }>;
  /** A start-up subset only: the size and mtime (ns) of the bundle it was cut from, `<size>:<mtimeNs>`. */
  source?: string;
}

/** The dist/ file of module `id` as the header records it. */
export function distFileOf(id: string, entry: BundleHeader['modules'][string] | undefined): string {
  return `${id}${entry?.ext ?? '.js'}`;
}

/** Bump when the bundle's layout changes. */
export const BUNDLE_FORMAT = 2;
export const HEADER_PREFIX = '// benchgraph-cli-bundle ';

export class CliBundle {
  private readonly records = new Map<string, ModuleRecord>();
  private readonly external = new Map<string, Namespace>();
  /** Modules whose dist/ build was found as the bundle recorded it. */
  private readonly current = new Set<string>();
  /** file: URL of dist/, ending in a slash (ids are plain relative paths). */
  private readonly distUrl: string;
  /** Registers the whole bundle, when the command needs a module its start-up subset lacks; null once done (or opened whole). */
  private whole: (() => void) | null = null;

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
   *
   * With a cache folder, a command starts from its start-up subset: the
   * modules its last start ran, cut from this bundle (same size and mtime)
   * into the cache folder. A no-op rerun of smoke runs 54 of the bundle's 410
   * modules, so it reads about 0.3 MB instead of 1.7. A module the
   * subset lacks registers the whole bundle then, and the subset is cut
   * again, with it, at the checkpoint or exit. The subset is trusted as the
   * code cache is: a private folder, and each module's dist/ build still
   * checked as the bundle recorded it.
   */
  static open(file: string, cacheDir: string | null, profile: string): CliBundle | null {
    let source: string;
    try {
      const st = statSync(file, { bigint: true });
      source = identityOf(st);
    } catch {
      return null;
    }
    const subsetFile = cacheDir ? join(cacheDir, `cli-startup-${fileTag(file)}-${profile}.js`) : null;
    const subset = subsetFile ? readBundle(subsetFile) : null;
    if (subset && subset.header.source === source) {
      const bundle = new CliBundle(dirname(file), subset.header);
      const cut = new Set<string>();
      bundle.compile(subset, cacheDir, profile, cut);
      bundle.whole = () => {
        const whole = readBundle(file);
        if (!whole || whole.identity !== source) throw new Error(`${file} changed while the command ran: run it again`);
        bundle.compile(whole, cacheDir, profile);
        // cut again only while the command is starting: the modules its long work needs stay out of the subset
        if (!startupIsOver()) bundle.cutLater(subsetFile!, whole, cut);
      };
      return bundle;
    }
    const whole = readBundle(file);
    if (!whole) return null;
    const bundle = new CliBundle(dirname(file), whole.header);
    bundle.compile(whole, cacheDir, profile);
    if (subsetFile) bundle.cutLater(subsetFile, whole, new Set());
    return bundle;
  }

  /** Compiles and runs a bundle file's text, registering its modules (those not registered yet); their ids into `ids`. */
  private compile(bundle: BundleText, cacheDir: string | null, profile: string, ids?: Set<string>): void {
    const system = {
      register: (id: string, deps: string[], declare: Declare) => {
        ids?.add(id);
        this.register(id, deps, declare);
      },
    };
    compileWithCache(bundle, cacheDir, profile)(system);
  }

  /**
   * At the checkpoint or exit: the start-up subset, cut from the whole
   * bundle's text, of the modules linked so far and those of the last
   * subset (`kept`), written to `subsetFile`. Nothing linked (a start that
   * fell back to the ES modules): nothing written.
   */
  private cutLater(subsetFile: string, whole: BundleText, kept: ReadonlySet<string>): void {
    let done = false;
    const cut = (): void => {
      if (done) return;
      done = true;
      const linked = [...this.records.values()].filter((r) => r.declared).map((r) => r.id);
      if (linked.length === 0) return;
      try {
        const text = subsetText(whole.text, { ...whole.header, source: whole.identity }, new Set([...kept, ...linked]));
        const tmp = `${subsetFile}.${process.pid}.tmp`;
        writeFileSync(tmp, Buffer.from(text, whole.header.ascii ? 'latin1' : 'utf8'), { mode: 0o600 });
        renameSync(tmp, subsetFile);
      } catch {
        // no subset this time: the next start reads the whole bundle
      }
    };
    onStartupDone(cut);
    process.once('exit', cut);
  }

  /**
   * Runs the module `id` (a path under dist/ without .js, e.g. harness/cli/main)
   * and what it imports; its exports. Null, with nothing run, when one of the
   * modules it would run differs from its dist/ build as the bundle recorded it.
   */
  async import(id: string): Promise<Namespace | null> {
    const record = this.record(id);
    if (!record) throw new Error(`the CLI bundle has no module ${id}`);
    const graph = new Set<string>();
    await this.loadExternals(record, graph);
    for (const m of graph) if (!this.isCurrent(m)) return null;
    this.instantiate(record);
    await this.execute(record);
    return record.ns;
  }

  /**
   * The module `id` of the bundle, registering the whole bundle when the start-up subset lacks it; undefined for
   * anything else. A whole bundle that could not be registered fails every later miss the same way.
   */
  private record(id: string): ModuleRecord | undefined {
    const hit = this.records.get(id);
    if (hit || !this.whole || !Object.hasOwn(this.header.modules, id)) return hit;
    const whole = this.whole;
    try {
      whole();
      this.whole = null;
    } catch (e) {
      this.whole = () => {
        throw e;
      };
      throw e;
    }
    return this.records.get(id);
  }

  private register(id: string, deps: string[], declare: Declare): void {
    if (this.records.has(id)) return; // from the start-up subset, and maybe run already
    const ns = Object.create(null) as Namespace;
    Object.defineProperty(ns, Symbol.toStringTag, { value: 'Module' });
    this.records.set(id, { id, deps, declare, ns, importers: [], declared: null, state: 0, done: null });
  }

  /** Node's built-ins and npm packages the module graph imports, imported natively before anything runs. */
  private async loadExternals(record: ModuleRecord, seen: Set<string>): Promise<void> {
    if (seen.has(record.id) || record.state === 2) return;
    seen.add(record.id);
    for (const dep of record.deps) {
      const inner = this.record(dep);
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
      meta: { url: `${this.distUrl}${distFileOf(record.id, this.header.modules[record.id])}` },
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
    const holds = (m: string): boolean => Object.hasOwn(this.header.modules, m);
    let id: string | null = holds(specifier) ? specifier : null;
    if (!id && specifier.startsWith('file:')) {
      const rel = relative(this.distDir, fileURLToPath(specifier)).split(sep).join('/');
      id = rel.endsWith('.js') && holds(rel.slice(0, -3)) ? rel.slice(0, -3) : null;
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
    const st = was ? statSync(`${this.distDir}/${distFileOf(id, was)}`, { throwIfNoEntry: false }) : undefined;
    if (!was || !st || st.size !== was.size || st.mtimeMs !== was.mtimeMs) return false;
    this.current.add(id);
    return true;
  }
}

/** A bundle file as read: its header, its text, and the size and mtime of the very file read (`identityOf`). */
interface BundleText {
  file: string;
  header: BundleHeader;
  text: string;
  identity: string;
}

/** `<size>:<mtimeNs>` of a file: what its cached code and a subset cut from it are checked against. */
function identityOf(st: { size: bigint; mtimeNs: bigint }): string {
  return `${st.size}:${st.mtimeNs}`;
}

/**
 * A bundle file's header and text, and the identity of the file they were read from (stat'ed through the open
 * descriptor, so a file renamed into place meanwhile is not taken for it); null when it is missing, unreadable
 * or of another format.
 */
function readBundle(file: string): BundleText | null {
  let fd: number | null = null;
  try {
    fd = openSync(file, 'r');
    const identity = identityOf(fstatSync(fd, { bigint: true }));
    const bytes = readFileSync(fd);
    const newline = bytes.indexOf(10);
    if (newline < 0 || bytes.toString('latin1', 0, HEADER_PREFIX.length) !== HEADER_PREFIX) return null;
    const header = JSON.parse(bytes.toString('utf8', HEADER_PREFIX.length, newline)) as BundleHeader;
    if (header.format !== BUNDLE_FORMAT) return null;
    return { file, header, text: bytes.toString(header.ascii ? 'latin1' : 'utf8'), identity };
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

const MODULE_START = '\nSystem.register("';

/**
 * The bundle text with only the modules `ids`, under `header`: each module
 * is one block from its `System.register("id"` at the start of a line to the
 * next one (build-cli-bundle.ts writes TypeScript's output that way).
 */
export function subsetText(whole: string, header: BundleHeader, ids: ReadonlySet<string>): string {
  const starts: number[] = [];
  for (let at = whole.indexOf(MODULE_START); at >= 0; at = whole.indexOf(MODULE_START, at + 1)) starts.push(at + 1);
  const end = whole.lastIndexOf('\n})');
  if (!starts.length || end < starts.at(-1)!) throw new Error('not a bundle of System.register blocks');
  const head = whole.slice(whole.indexOf('\n') + 1, starts[0]);
  const blocks = starts
    .map((start, i) => whole.slice(start, starts[i + 1] ?? end))
    .filter((b) => ids.has(b.slice(MODULE_START.length - 1, b.indexOf('"', MODULE_START.length - 1))));
  return `${HEADER_PREFIX}${JSON.stringify(header)}\n${head}${blocks.join('')}${whole.slice(end)}`;
}

/** A short name for a bundle path, for its cache files: checkouts side by side keep theirs. */
function fileTag(file: string): string {
  return createHash('sha256').update(file).digest('hex').slice(0, 16);
}

/**
 * A Node built-in as its ES module namespace would show it (its exports by
 * name, and the module as `default`), taken through require, which hands
 * back Node's loaded object: a native import() of each built-in the CLI uses
 * would go through the ES module loader (a module record and its jobs each).
 * The built-in is required on the first read of one of its exports, not
 * when a module importing it is linked: a module's code reads its imports
 * through the namespace (TypeScript's System output writes `ns.name`), so a
 * built-in that a command's path never calls is never loaded (a no-op
 * rerun links fs/promises and never calls it: 1 ms of Node's compiling).
 */
function builtinNamespace(specifier: string): Namespace {
  let mod: Record<string | symbol, unknown> | null = null;
  const loaded = (): Record<string | symbol, unknown> => (mod ??= require(specifier) as Record<string | symbol, unknown>);
  const own = (k: string | symbol): boolean => k === 'default' || Object.hasOwn(loaded(), k);
  return new Proxy(Object.create(null) as Namespace, {
    get: (_, k) => (k === Symbol.toStringTag ? 'Module' : k === 'default' ? loaded() : own(k) ? loaded()[k] : undefined),
    has: (_, k) => own(k),
    ownKeys: () => [...Object.keys(loaded()), 'default'],
    getOwnPropertyDescriptor: (_, k) =>
      own(k) ? { value: k === 'default' ? loaded() : loaded()[k], enumerable: true, configurable: true, writable: false } : undefined,
  });
}

/**
 * The bundle compiled with V8's cached data of an earlier compilation when the
 * bundle file is the same (path, size and mtime in nanoseconds, as the cache's
 * header records them; V8 checks the data's own version and flags). The data
 * is written at the end of start-up (process/startup-checkpoint.cts), or at
 * exit, so it holds the functions the command's start compiled: one file per
 * command (`profile`), since each runs other functions.
 */
function compileWithCache(bundle: BundleText, cacheDir: string | null, profile: string): (system: unknown) => void {
  const { file, text } = bundle;
  const identity = JSON.stringify({ file, size_mtimeNs: bundle.identity });
  // one file per bundle path and command
  const cacheFile = cacheDir ? join(cacheDir, `cli-bundle-${fileTag(file)}-${profile}.bin`) : null;
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

// The loaded, validated config of a pipeline file, cached so that a command
// whose inputs did not change loads neither the YAML parser nor the schema
// validators. The same inputs give the same validated config, so a hit is the
// full load's result, not a skipped check. The key covers every input of the
// load: the file's path and bytes, the --set texts in order, the stage kinds,
// the compiled validators (after the check that they are not older than
// schemas/), the config-loading code itself (every project module
// load-pipeline.js imports, transitively, byte for byte), the versions of the
// yaml and ajv packages, and the answer to each file-existence question the
// rules asked (asked again on a hit). On a miss, or any doubt (an unreadable
// entry, a config JSON cannot carry exactly), the full load runs, so every
// error still comes from it, with file and line.
//
// One entry per pipeline path, in the user's private cache folder (not the
// data folder: data.filesystem mounts an image there, which must find it empty).
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { sha256Hex } from '../digest/sha256.js';
import type { LoadOptions } from './load-pipeline.js';
import type { PipelineConfig } from './pipeline-config.js';
import { validatorsFile } from './validators-file.js';
import { hasExtends } from './has-extends.js';
import { projectRoot } from '../process/project-root.js';

/** Bump when an entry's layout or what the key covers changes. */
const FORMAT = 1;

interface Entry {
  format: number;
  key: string;
  existsAnswers: [string, boolean][];
  config: PipelineConfig;
}

/** Digests of what does the loading: the compiled validators, the loading code, the yaml and ajv versions. */
export interface LoadingCode {
  validators: string;
  code: string;
  packages: (string | null)[];
}

/** What a load did, for tests and benches. */
export interface CachedLoad {
  config: PipelineConfig;
  hit: boolean;
}

/** Loads the pipeline file through the cache in `cacheDir` (the full load alone when it is null). */
export async function loadPipelineCached(
  file: string,
  options: Omit<LoadOptions, 'existsAnswers'>,
  cacheDir: string | null,
  loading: () => LoadingCode = () => loadingCodeCached(cacheDir),
): Promise<CachedLoad> {
  const abs = resolve(file);
  let text: string | null = null;
  try {
    text = readFileSync(abs, 'utf8');
  } catch {
    // the full load names the problem
  }
  // A file that extends another has inputs beyond its own bytes: the full load, uncached.
  const key = text === null || hasExtends(text) ? null : inputKey(abs, text, options, loading);
  const entryFile = cacheDir && key ? join(cacheDir, `${sha256Hex(abs).slice(0, 32)}.json`) : null;
  if (entryFile && key) {
    const config = readEntry(entryFile, key);
    if (config) return { config: { ...config, file: abs }, hit: true };
  }
  const { loadPipeline, loadPipelineText } = await import('./load-pipeline.js');
  if (text === null) return { config: loadPipeline(file, options), hit: false };
  const existsAnswers = new Map<string, boolean>();
  const config = loadPipelineText(file, text, { ...options, existsAnswers });
  if (entryFile && key) writeEntry(entryFile, { format: FORMAT, key, existsAnswers: [...existsAnswers], config });
  return { config, hit: false };
}

function readEntry(file: string, key: string): PipelineConfig | null {
  if (!existsSync(file)) return null;
  try {
    const e = JSON.parse(readFileSync(file, 'utf8')) as Entry;
    if (e.format !== FORMAT || e.key !== key || !Array.isArray(e.existsAnswers) || typeof e.config !== 'object' || e.config === null) return null;
    for (const [path, yes] of e.existsAnswers) if (existsSync(path) !== yes) return null;
    return e.config;
  } catch {
    return null; // torn or foreign: the full load
  }
}

function writeEntry(file: string, entry: Entry): void {
  try {
    const text = JSON.stringify(entry);
    // Only a config JSON carries exactly (no Infinity, undefined or other non-JSON values).
    if (!isDeepStrictEqual((JSON.parse(text) as Entry).config, entry.config)) return;
    writeAtomic(file, text);
  } catch {
    // no cache this time
  }
}

/** The file replaced whole (a private temporary file renamed over it), so a reader never sees it torn. */
function writeAtomic(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600 });
  renameSync(tmp, file);
}

/** sha256 over every input of the full load but the answers to the rules' file-existence questions; null when one cannot be read (the full load then says why). */
function inputKey(abs: string, text: string, options: Omit<LoadOptions, 'existsAnswers'>, loading: () => LoadingCode): string | null {
  try {
    const inputs = { format: FORMAT, file: abs, text: sha256Hex(text), sets: options.sets ?? [], kinds: [...options.knownKinds].sort(), ...loading() };
    return sha256Hex(JSON.stringify(inputs));
  } catch {
    return null;
  }
}

/** The loading code as installed (throws when the validators are missing or older than schemas/). */
export function loadingCode(read: (file: string) => Buffer = (f) => readFileSync(f)): LoadingCode {
  return {
    validators: sha256Hex(read(validatorsFile())),
    code: loadingCodeDigest((f) => read(f).toString('utf8')),
    packages: ['yaml', 'ajv'].map((name) => packageVersion(name, read)),
  };
}

interface LoadingEntry {
  format: number;
  /** Every file the digests read, with its size and mtime then. */
  files: [string, number, number][];
  loading: LoadingCode;
}

/**
 * loadingCode() through a record in `cacheDir` of every file it read with its
 * size and mtime: while each file still has them, the digests are the ones
 * computed then (as the stage code digests are cached, engine/code-digest.ts),
 * so a start reads and hashes neither the validators (about 250 kB) nor the
 * loading code; any file changed or gone, and they are computed again.
 */
export function loadingCodeCached(cacheDir: string | null): LoadingCode {
  const recordFile = cacheDir ? loadingRecordFile(cacheDir) : null;
  validatorsFile(); // its check (present, not older than schemas/) runs at every start
  if (recordFile && existsSync(recordFile)) {
    try {
      const e = JSON.parse(readFileSync(recordFile, 'utf8')) as LoadingEntry;
      if (e.format === FORMAT && Array.isArray(e.files) && e.files.length && e.files.every(([f, size, mtime]) => sameStat(f, size, mtime))) return e.loading;
    } catch {
      // torn or foreign: compute again
    }
  }
  const files: [string, number, number][] = [];
  const read = (file: string): Buffer => {
    const st = statSync(file);
    files.push([file, st.size, st.mtimeMs]);
    return readFileSync(file);
  };
  const loading = loadingCode(read);
  if (recordFile) writeRecord(recordFile, { format: FORMAT, files, loading });
  return loading;
}

/**
 * The record of this checkout's loading code: one per project root, since the cache folder is the user's, shared
 * by every checkout, and a record of another checkout whose files are unchanged would pass for this one's.
 */
export function loadingRecordFile(cacheDir: string): string {
  return join(cacheDir, `loading-code-${sha256Hex(projectRoot()).slice(0, 16)}.json`);
}

function sameStat(file: string, size: number, mtimeMs: number): boolean {
  try {
    const st = statSync(file);
    return st.size === size && st.mtimeMs === mtimeMs;
  } catch {
    return false;
  }
}

function writeRecord(file: string, record: LoadingEntry): void {
  try {
    writeAtomic(file, JSON.stringify(record));
  } catch {
    // no record this time
  }
}

const IMPORT_RE = /(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/** sha256 over path and bytes of this module and every project module load-pipeline.js imports, transitively. */
function loadingCodeDigest(read: (file: string) => string): string {
  const here = fileURLToPath(import.meta.url);
  const seen = new Set<string>();
  const parts: string[] = [];
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = read(file);
    parts.push(`${file}\0${sha256Hex(source)}`);
    for (const m of source.matchAll(IMPORT_RE)) visit(resolve(dirname(file), m[1]!));
  };
  visit(here);
  visit(join(dirname(here), 'load-pipeline.js'));
  return sha256Hex(parts.join('\n'));
}

/** The installed version of an npm package, found as Node finds it from here (null when absent). */
function packageVersion(name: string, read: (file: string) => Buffer): string | null {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const file = join(dir, 'node_modules', name, 'package.json');
    if (existsSync(file)) return (JSON.parse(read(file).toString('utf8')) as { version: string }).version;
    if (dirname(dir) === dir) return null;
  }
}

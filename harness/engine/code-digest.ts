// The code a stage runs: its compiled module in dist/stages/ and every project
// module it imports, transitively (relative static and dynamic imports of the
// emitted JavaScript; npm packages are pinned by package-lock.json), plus the
// scripts and C sources it runs by path (`extraCode`).
//
// A digest covers what executes, not the text around it: a JavaScript module
// is hashed as its token sequence (comments, whitespace and trailing commas
// dropped, a string by its value whatever its quotes, template and regex
// literals kept exactly), so a comment, a type-only import or a formatting
// change never changes a key. (Formatting is Prettier's, checked by the test
// command, so parentheses and commas are canonical.) A shell script is hashed without
// its comment lines and blank lines; other files byte for byte.
//
// Digests are cached by path, size and mtime in a JSON file (under .data/), so
// a no-op run does not load the TypeScript parser.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync, renameSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { sha256Hex } from '../digest/sha256.js';
import { projectRoot } from '../process/project-root.js';

/** Bump when the way a file is reduced to its digest changes. */
const DIGEST_FORMAT = 4;

interface FileEntry {
  size: number;
  mtimeMs: number;
  digest: string;
  /** Absolute paths of the project files this one imports. */
  imports: string[];
}

interface CacheFile {
  format: number;
  files: Record<string, FileEntry>;
}

type TsModule = typeof import('typescript');
let tsModule: TsModule | null = null;
function ts(): TsModule {
  // Loaded only on a cache miss: it is large.
  tsModule ??= createRequire(import.meta.url)('typescript') as TsModule;
  return tsModule;
}

/**
 * Digests of code files, cached by (path, size, mtime). One instance per
 * command; `save()` writes the cache back when something was computed.
 */
export class CodeDigester {
  private cache: CacheFile;
  private dirty = false;
  private readonly stageMemo = new Map<string, Record<string, string>>();
  /** Entries this command already looked at: a module several stages import is stat'ed once. */
  private readonly seen = new Map<string, FileEntry>();

  constructor(private readonly cacheFile: string | null) {
    this.cache = { format: DIGEST_FORMAT, files: {} };
    if (cacheFile && existsSync(cacheFile)) {
      try {
        const c = JSON.parse(readFileSync(cacheFile, 'utf8')) as CacheFile;
        if (c.format === DIGEST_FORMAT && c.files) this.cache = c;
      } catch {
        // unreadable cache: recompute
      }
    }
  }

  /**
   * Map of project-relative source path (stages/x.ts, harness/…/y.ts, scripts
   * as they are) -> sha256 of what runs, for a stage kind's code.
   */
  stageDigests(kind: string, extraCode: readonly string[] = []): Record<string, string> {
    const memoKey = [kind, ...extraCode].join('\0');
    const hit = this.stageMemo.get(memoKey);
    if (hit) return hit;
    const root = projectRoot();
    const out: Record<string, string> = {};
    const seen = new Set<string>();
    const visit = (abs: string): void => {
      if (seen.has(abs)) return;
      seen.add(abs);
      const entry = this.entry(abs);
      out[sourceLabel(root, abs)] = entry.digest;
      for (const dep of entry.imports) visit(dep);
    };
    const stageJs = join(root, 'dist', 'stages', `${kind}.js`);
    if (!existsSync(stageJs)) throw new Error(`stage module ${stageJs} is missing: run 'npm run build'`);
    visit(stageJs);
    // TypeScript sources in an extraCode folder count only through the compiled
    // modules the stage imports (visited above), not because they sit beside its scripts.
    for (const rel of extraCode) for (const f of listFiles(join(root, rel))) if (!f.endsWith('.ts')) visit(f);
    const sorted: Record<string, string> = {};
    for (const k of Object.keys(out).sort()) sorted[k] = out[k]!;
    this.stageMemo.set(memoKey, sorted);
    return sorted;
  }

  /** The mtime of a file a stageDigests() call of this command stat'ed (undefined for one it did not). */
  statedMtimeMs(abs: string): number | undefined {
    return this.seen.get(abs)?.mtimeMs;
  }

  /** Writes the cache back if anything new was computed. */
  save(): void {
    if (!this.dirty || !this.cacheFile) return;
    mkdirSync(dirname(this.cacheFile), { recursive: true });
    const tmp = `${this.cacheFile}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.cache));
    renameSync(tmp, this.cacheFile);
    this.dirty = false;
  }

  private entry(abs: string): FileEntry {
    const known = this.seen.get(abs);
    if (known) return known;
    const entry = this.lookUp(abs);
    this.seen.set(abs, entry);
    return entry;
  }

  private lookUp(abs: string): FileEntry {
    const st = statSync(abs);
    const hit = this.cache.files[abs];
    if (hit && hit.size === st.size && hit.mtimeMs === st.mtimeMs) return hit;
    const text = readFileSync(abs, 'utf8');
    const computed = abs.endsWith('.js') ? jsDigest(abs, text) : { digest: fileDigest(abs, text), imports: [] };
    const entry: FileEntry = { size: st.size, mtimeMs: st.mtimeMs, ...computed };
    this.cache.files[abs] = entry;
    this.dirty = true;
    return entry;
  }
}

/** dist/harness/x/y.js -> harness/x/y.ts; other files relative to the root. */
function sourceLabel(root: string, abs: string): string {
  // paths here are resolved: under the root, a prefix cut is path.relative's answer, without its cost per file
  const rel = abs.startsWith(root + sep) ? abs.slice(root.length + 1) : relative(root, abs);
  return rel.startsWith('dist/') && rel.endsWith('.js') ? rel.slice('dist/'.length, -3) + '.ts' : rel;
}

/**
 * Digest and project imports of an emitted JavaScript module: its syntax tree
 * as tokens with a bracket around every node, so the tree's shape is hashed
 * and parentheses need not be. Left out: comments and whitespace (trivia),
 * the parentheses of a parenthesized expression (the tree keeps what they
 * grouped), a trailing comma before a closing bracket, and a string's quotes.
 */
export function jsDigest(abs: string, text: string): { digest: string; imports: string[] } {
  const t = ts();
  const sf = t.createSourceFile(abs, text, t.ScriptTarget.Latest, true, t.ScriptKind.JS);
  const OPEN = -1;
  const CLOSE = -2;
  const tokens: { kind: number; text: string }[] = [];
  const imports = new Set<string>();
  const walk = (node: import('typescript').Node): void => {
    if (node.kind >= t.SyntaxKind.FirstJSDocNode && node.kind <= t.SyntaxKind.LastJSDocNode) return;
    if ((t.isImportDeclaration(node) || t.isExportDeclaration(node)) && node.moduleSpecifier && t.isStringLiteral(node.moduleSpecifier)) {
      addImport(abs, node.moduleSpecifier.text, imports);
    } else if (t.isCallExpression(node) && node.expression.kind === t.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0];
      if (arg && t.isStringLiteralLike(arg)) addImport(abs, arg.text, imports);
    }
    if (t.isParenthesizedExpression(node)) return walk(node.expression);
    const kids = node.getChildren(sf);
    if (kids.length === 0) {
      if (node.kind === t.SyntaxKind.EndOfFileToken) return;
      // A string's value, not its quotes: 'a' and "a" are the same code.
      const text = node.kind === t.SyntaxKind.StringLiteral ? JSON.stringify((node as import('typescript').StringLiteral).text) : node.getText(sf);
      tokens.push({ kind: node.kind, text });
      return;
    }
    tokens.push({ kind: OPEN, text: '{' });
    for (const k of kids) walk(k);
    tokens.push({ kind: CLOSE, text: '}' });
  };
  walk(sf);
  // A trailing comma before a closing bracket is formatting, not code; an
  // array hole (`[,]`, `[1, ,]`: a comma after `[`, a comma or a hole) is code.
  const real = tokens.map((tok, i) => i).filter((i) => tokens[i]!.kind >= 0);
  const kindAt = (r: number): number => (r >= 0 && r < real.length ? tokens[real[r]!]!.kind : -3);
  const closing = new Set<number>([t.SyntaxKind.CloseParenToken, t.SyntaxKind.CloseBracketToken, t.SyntaxKind.CloseBraceToken]);
  const hole = new Set<number>([t.SyntaxKind.OpenBracketToken, t.SyntaxKind.CommaToken, t.SyntaxKind.OmittedExpression]);
  const dropped = new Set<number>();
  real.forEach((i, r) => {
    if (tokens[i]!.kind === t.SyntaxKind.CommaToken && closing.has(kindAt(r + 1)) && !hole.has(kindAt(r - 1))) dropped.add(i);
  });
  const kept = tokens.filter((_, i) => !dropped.has(i));
  return { digest: sha256Hex(kept.map((tok) => tok.text).join('\u0001')), imports: [...imports].sort() };
}

function addImport(fromAbs: string, spec: string, into: Set<string>): void {
  if (!spec.startsWith('./') && !spec.startsWith('../')) return; // npm packages: pinned by the lock file
  const target = resolve(dirname(fromAbs), spec);
  if (existsSync(target) && statSync(target).isFile()) into.add(target);
}

/** A shell script without its comment lines and blank lines; any other file as it is. */
export function fileDigest(abs: string, text: string): string {
  if (!abs.endsWith('.sh')) return sha256Hex(text);
  const lines = text.split('\n');
  const kept = lines.filter((l, i) => {
    const s = l.trim();
    if (!s) return false;
    return !(s.startsWith('#') && !(i === 0 && s.startsWith('#!')));
  });
  return sha256Hex(kept.map((l) => l.replace(/\s+$/, '')).join('\n'));
}

function listFiles(abs: string): string[] {
  if (!existsSync(abs)) return [];
  if (!statSync(abs).isDirectory()) return [abs];
  return readdirSync(abs)
    .sort()
    .flatMap((name) => listFiles(join(abs, name)))
    .filter((f) => !f.includes('/build/'));
}

// Build step (npm run build, after tsc): dist/cli-bundle.js, the CLI as one
// script that bin/pipeline.js runs through cli-bundle.cts. TypeScript compiles
// harness/cli/main.ts and every stage module (the stage registry imports them
// by path), with everything they import, as System.register modules into one
// file (no type check: tsc -p . just did it on the same sources). The first
// line records the size and mtime of each module's ES build in dist/, so a
// dist/ rebuilt without this step is noticed and run instead.
// Run: node dist/harness/cli/build-cli-bundle.js
import { existsSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { projectRoot } from '../process/project-root.js';
import { BUNDLE_FORMAT, HEADER_PREFIX, distFileOf, type BundleHeader } from './cli-bundle.cjs';

const ts = createRequire(import.meta.url)('typescript') as typeof import('typescript');

const NON_ASCII = /[^\x00-\x7f]/;

/**
 * Rewrites a string or (untagged) template literal holding a character
 * beyond ASCII as a new node of the same value, which the printer writes with
 * \u escapes: an ASCII bundle is read as latin1, a copy, not decoded as UTF-8.
 */
function asciiLiterals(context: import('typescript').TransformationContext) {
  const f = context.factory;
  const tagged = (n: import('typescript').Node): boolean => {
    for (let p = n.parent; p; p = p.parent) {
      if (ts.isTaggedTemplateExpression(p)) return true;
      if (!ts.isTemplateExpression(p) && !ts.isTemplateSpan(p)) return false;
    }
    return false;
  };
  const visit = (node: import('typescript').Node): import('typescript').Node => {
    if (ts.isStringLiteral(node) && NON_ASCII.test(node.text) && !ts.isImportDeclaration(node.parent) && !ts.isExportDeclaration(node.parent))
      return f.createStringLiteral(node.text);
    if (ts.isNoSubstitutionTemplateLiteral(node) && NON_ASCII.test(node.text) && !tagged(node)) return f.createNoSubstitutionTemplateLiteral(node.text);
    if (ts.isTemplateHead(node) && NON_ASCII.test(node.text) && !tagged(node)) return f.createTemplateHead(node.text);
    if (ts.isTemplateMiddle(node) && NON_ASCII.test(node.text) && !tagged(node)) return f.createTemplateMiddle(node.text);
    if (ts.isTemplateTail(node) && NON_ASCII.test(node.text) && !tagged(node)) return f.createTemplateTail(node.text);
    return ts.visitEachChild(node, visit, context);
  };
  return (sf: import('typescript').SourceFile) => ts.visitNode(sf, visit) as import('typescript').SourceFile;
}

export function buildCliBundle(root: string): { file: string; modules: number; bytes: number } {
  const parsed = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  if (!parsed) throw new Error('cannot read tsconfig.json');
  const stages = readdirSync(join(root, 'stages'))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => join(root, 'stages', f));
  const out = join(root, 'dist', 'cli-bundle.js');
  const options: import('typescript').CompilerOptions = {
    ...parsed.options,
    module: ts.ModuleKind.System,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    resolveJsonModule: false,
    outFile: out,
    outDir: undefined,
    rootDir: root,
    sourceMap: false,
    declaration: false,
    noCheck: true,
    removeComments: true,
  };
  const program = ts.createProgram([join(root, 'harness', 'cli', 'main.ts'), ...stages], options);
  let text = '';
  const result = program.emit(
    undefined,
    (name, data) => {
      if (name === out) text = data;
    },
    undefined,
    false,
    { before: [asciiLiterals] },
  );
  const errors = result.diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (errors.length || !text) throw new Error(`the CLI bundle did not compile: ${ts.formatDiagnostics(errors, ts.createCompilerHost(options)).trim()}`);
  const modules: BundleHeader['modules'] = {};
  for (const m of text.matchAll(/^System\.register\("([^"]+)"/gm)) {
    // cli-bundle.cts makes a module's import.meta.url by appending its id to dist/'s URL
    if (!/^[\w./-]+$/.test(m[1]!)) throw new Error(`module path ${m[1]!} needs URL escaping: rename it`);
    const ext = existsSync(join(root, `${m[1]!}.cts`)) ? ('.cjs' as const) : undefined; // a CommonJS module of the build
    const st = statSync(join(root, 'dist', distFileOf(m[1]!, { size: 0, mtimeMs: 0, ext })));
    modules[m[1]!] = ext ? { size: st.size, mtimeMs: st.mtimeMs, ext } : { size: st.size, mtimeMs: st.mtimeMs };
  }
  const header: BundleHeader = { format: BUNDLE_FORMAT, ascii: !NON_ASCII.test(text), modules };
  const bundle = `${HEADER_PREFIX}${JSON.stringify(header)}\n(function (System) {\n${text}\n})\n`;
  const tmp = `${out}.${process.pid}.tmp`;
  writeFileSync(tmp, bundle);
  renameSync(tmp, out);
  return { file: out, modules: Object.keys(modules).length, bytes: Buffer.byteLength(bundle) };
}

if (process.argv[1]?.endsWith('build-cli-bundle.js')) {
  const r = buildCliBundle(projectRoot());
  process.stdout.write(`bundled ${r.modules} modules of the CLI into ${r.file} (${(r.bytes / 1e6).toFixed(1)} MB)\n`);
}

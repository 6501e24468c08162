// Reads the browser builds of vega, vega-lite and vega-embed from their npm
// packages (node_modules), for inlining into index.html.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { PageLibraries } from './render-index-html.js';

const require = createRequire(import.meta.url);

/** A file of the package's build/ folder, found beside its CommonJS entry (vega-embed exports no subpaths). */
async function build(pkg: string, file: string): Promise<string> {
  return readFile(join(dirname(require.resolve(pkg)), file), 'utf8');
}

export async function readPageLibraries(): Promise<PageLibraries> {
  return {
    vega: await build('vega', 'vega.min.js'),
    vegaLite: await build('vega-lite', 'vega-lite.min.js'),
    vegaEmbed: await build('vega-embed', 'vega-embed.min.js'),
  };
}

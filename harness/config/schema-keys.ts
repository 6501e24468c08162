// The keys the pipeline schema allows at a path (schemas/pipeline.schema.json
// and the section schemas it refers to), read only when a config names an
// unknown key, so its error can say which key was meant. Follows $ref (to a
// file, or within one to #/$defs/...), properties, additionalProperties,
// items, and the branches of allOf/anyOf/oneOf.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { schemasDir } from '../process/project-root.js';

type Node = Record<string, unknown>;

function load(file: string): Node {
  return JSON.parse(readFileSync(join(schemasDir(), file), 'utf8')) as Node;
}

/** The node a $ref names, in `file` or another schema file. */
function deref(node: Node, file: string): { node: Node; file: string } {
  let cur = { node, file };
  for (let i = 0; i < 10 && typeof cur.node['$ref'] === 'string'; i++) {
    const [target, pointer] = (cur.node['$ref'] as string).split('#');
    const f = target ? target : cur.file;
    let n = load(f);
    for (const seg of (pointer ?? '').split('/').filter(Boolean)) n = (n[seg] ?? {}) as Node;
    cur = { node: n, file: f };
  }
  return cur;
}

/** Every object node a node stands for: itself and the branches of allOf/anyOf/oneOf, dereferenced. */
function branches(node: Node, file: string): { node: Node; file: string }[] {
  const d = deref(node, file);
  const subs = ['allOf', 'anyOf', 'oneOf'].flatMap((k) => (Array.isArray(d.node[k]) ? (d.node[k] as Node[]) : []));
  return [d, ...subs.flatMap((s) => branches(s, d.file))];
}

/** The property names allowed at `path` (e.g. ['design']), or [] when the schema has none there. */
export function schemaKeysAt(path: readonly (string | number)[]): string[] {
  let nodes = branches(load('pipeline.schema.json'), 'pipeline.schema.json');
  for (const seg of path) {
    nodes = nodes.flatMap(({ node, file }) => {
      const next =
        typeof seg === 'number'
          ? (node['items'] as Node | undefined)
          : (((node['properties'] as Record<string, Node> | undefined)?.[seg] ??
              (typeof node['additionalProperties'] === 'object' ? node['additionalProperties'] : undefined)) as Node | undefined);
      return next ? branches(next, file) : [];
    });
  }
  return [...new Set(nodes.flatMap(({ node }) => Object.keys((node['properties'] as Node | undefined) ?? {})))];
}

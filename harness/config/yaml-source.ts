// Step 1 of config loading: parse YAML keeping positions, so any later error
// can name the file, line and column of the key it is about.
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import { UserError } from '../errors.js';

export interface YamlSource {
  file: string;
  doc: Document.Parsed;
  lines: LineCounter;
  value: unknown;
}

export interface Position {
  line: number;
  col: number;
}

export function parseYamlSource(file: string, text: string): YamlSource {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  const first = doc.errors[0];
  if (first) {
    const pos = lines.linePos(first.pos[0]);
    const what = first.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    throw new UserError(`invalid YAML: ${what}`, { file, line: pos.line, col: pos.col }, 'fix the YAML syntax');
  }
  const value = doc.toJS({ maxAliasCount: 100 }) ?? {};
  return { file, doc, lines, value };
}

/**
 * Position of the node at a key path (e.g. ['design','rounds'] or
 * ['stages', 2, 'needs', 0]); falls back to the nearest existing parent.
 * With `keyOfLast`, the position of the last key itself rather than its value.
 */
export function positionOf(src: YamlSource, path: readonly (string | number)[], keyOfLast = false): Position {
  let node: unknown = src.doc.contents;
  let best: Position = { line: 1, col: 1 };
  const nodePos = (n: unknown): Position | null => {
    const range = (n as Node | null)?.range;
    return range ? src.lines.linePos(range[0]) : null;
  };
  best = nodePos(node) ?? best;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i]!;
    if (isMap(node)) {
      const pair = node.items.find((p) => (isScalar(p.key) ? String(p.key.value) : String(p.key)) === String(seg));
      if (!pair) return best;
      const last = i === path.length - 1;
      const keyPos = nodePos(pair.key);
      if (last && keyOfLast && keyPos) return keyPos;
      node = pair.value;
      best = nodePos(node) ?? keyPos ?? best;
    } else if (isSeq(node) && typeof seg === 'number') {
      node = node.items[seg];
      best = nodePos(node) ?? best;
    } else {
      return best;
    }
  }
  return best;
}

// What `pipeline gc` prints (pure): one line per folder under --dry-run,
// then totals; a folder kept because something is mounted below it is named.
import { relative } from 'node:path';
import type { GcResult } from './garbage-collect.js';

export function formatGc(r: GcResult, cwd: string = process.cwd()): string {
  const lines: string[] = [];
  const shown = (p: string): string => relative(cwd, p) || p;
  const others = r.items.filter((i) => i.what !== 'stage' && !i.blockedBy).length;
  if (r.dryRun) {
    for (const i of r.items)
      lines.push(
        i.blockedBy
          ? `would keep ${i.what} ${shown(i.path)}: still mounted below it: ${i.blockedBy.join(', ')}`
          : `would remove ${i.what} ${shown(i.path)} ${i.bytes} bytes`,
      );
    lines.push(`would remove ${r.removed.length} unreferenced stage outputs (keeping ${r.kept}) and ${others} other folders: ${r.bytes} bytes`);
  } else {
    for (const i of r.items) if (i.blockedBy) lines.push(`kept ${i.what} ${shown(i.path)}: still mounted below it: ${i.blockedBy.join(', ')}`);
    lines.push(
      `removed ${r.removed.length} unreferenced stage outputs, kept ${r.kept}; removed ${others} other folders (work, artifacts, tmp, run); freed ${r.bytes} bytes`,
    );
  }
  return lines.join('\n') + '\n';
}

// The archive's part of `pipeline audit`: every archived run folder must hold
// exactly the files its run.json lists, each with its sha256, and its name
// must end with the first 12 hex digits of its run digest (archive-run.ts).
// Where run.json records the run digest, its stages must give that digest
// again and the record its own recordDigest.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sha256Hex } from '../digest/sha256.js';
import { recordDigestOf, runDigest, storeRunDigest } from './archive-run.js';
import { RUN_FILE, type RunRecord } from './run-record.js';

export interface ArchiveFinding {
  file: string;
  problem: 'missing' | 'changed' | 'unexpected';
}

export function auditArchive(runsDir: string): { checkedFiles: number; findings: ArchiveFinding[] } {
  const findings: ArchiveFinding[] = [];
  let checkedFiles = 0;
  if (!existsSync(runsDir)) return { checkedFiles, findings };
  for (const id of readdirSync(runsDir).sort()) {
    const folder = join(runsDir, id);
    if (!statSync(folder).isDirectory()) {
      findings.push({ file: folder, problem: 'unexpected' });
      continue;
    }
    const recordFile = join(folder, RUN_FILE);
    if (!existsSync(recordFile)) {
      findings.push({ file: recordFile, problem: 'missing' });
      continue;
    }
    checkedFiles++;
    let record: RunRecord;
    try {
      record = JSON.parse(readFileSync(recordFile, 'utf8')) as RunRecord;
    } catch {
      findings.push({ file: recordFile, problem: 'changed' });
      continue;
    }
    const intact =
      id.endsWith('-' + runDigest(record).slice(0, 12)) &&
      (record.runDigest === undefined ||
        (storeRunDigest(record.experiment, record.stages) === record.runDigest && record.recordDigest === recordDigestOf(record)));
    if (!intact) findings.push({ file: recordFile, problem: 'changed' });
    const listed = record.files ?? {};
    for (const [name, sha] of Object.entries(listed)) {
      checkedFiles++;
      const file = join(folder, name);
      if (!existsSync(file)) findings.push({ file, problem: 'missing' });
      else if (sha256Hex(readFileSync(file)) !== sha) findings.push({ file, problem: 'changed' });
    }
    for (const name of readdirSync(folder)) if (name !== RUN_FILE && !(name in listed)) findings.push({ file: join(folder, name), problem: 'unexpected' });
  }
  return { checkedFiles, findings };
}

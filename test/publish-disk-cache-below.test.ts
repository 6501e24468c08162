// publish/disk-section.ts (our own rule, on made-up probes): a read after the
// guest dropped its pages that runs above ×3 the run's median write (fsync) is
// marked as served by a cache below the VM, and the paragraph says its reads
// say nothing about the disk (issue 44 item 5); reads near the writes are not
// marked, even when most reads of a run are the host's cache.
import test from 'ava';
import { diskProbeBlocks, readsFromBelow } from '../harness/publish/disk-section.js';
import { probe } from './helpers/disk-probe.js';
import type { SessionRecord } from '../harness/contract/exchange-files.js';

test('a read far above the writes is from a cache below the VM; reads near them are not', (t) => {
  const probes = [probe(710, 774), probe(331, 7313), probe(370, 6085), probe(1019, 913), probe(958, 1263), probe(1184, 1748)];
  // median write 834: above 2,502 MB/s is marked
  t.deepEqual(
    [...readsFromBelow(probes)].map((p) => p.readMBps),
    [7313, 6085],
  );
  // most reads from the host's cache (the run of 2026-12-07 08:54): held to the writes (median 389 MB/s, so above 1,167), they are still marked
  const cached = [probe(271, 5678), probe(241, 6740), probe(345, 6485), probe(433, 920), probe(535, 1249), probe(534, 4224)];
  t.deepEqual(
    [...readsFromBelow(cached)].map((p) => p.readMBps),
    [5678, 6740, 6485, 1249, 4224],
  );
});

test('the table marks those reads and the paragraph says what they mean', (t) => {
  const records = [
    [probe(710, 774), probe(331, 7313)],
    [probe(1019, 913), probe(958, 1263)],
  ].map(([start, end], i) => ({ session: i + 1, attempt: 1, disk: { start: start!, end: end! } }) as unknown as SessionRecord);
  const blocks = diskProbeBlocks(records);
  const text = JSON.stringify(blocks);
  t.regex(text, /331 \/ 7313 \(cache below the VM\)/);
  t.notRegex(text, /774 \(cache below/);
  t.regex(text, /1 of 4 reads ran above ×3 the run's median write/);
});

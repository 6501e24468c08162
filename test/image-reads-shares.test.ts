import test from 'ava';
import { ByteWindow } from '../harness/net/byte-window.js';
import { MEAN_OVER_IMAGES, readShares, PEER_SHARES } from '../harness/image-reads/read-shares.js';
import type { SampleRow } from '../harness/db/sample-row.js';
import { twoLevelMedian } from '../harness/stats/two-level-median.js';
import { madeUpRow } from './helpers/made-up-row.js';

test('a byte window cut at Ready (made-up clock): arrivals up to Ready, and waiting clipped at Ready', (t) => {
  const w = new ByteWindow('l1', 1000, false);
  w.waiting(1010, true);
  w.received(1020, 120, 100);
  w.waiting(1030, false); // waited 20 ms
  w.waiting(1050, true);
  w.received(1070, 60, 50); // after Ready (at 60 ms)
  const c = w.totals(1100, 60); // still waiting at the end: 1050..1100
  t.deepEqual(c, { contentBytes: 150, responseBytes: 180, readyContentBytes: 100, fetchWaitMs: 20 + 50, readyFetchWaitMs: 20 + 10 });
  const open = new ByteWindow('l2', 0, true); // a request already outstanding when the window opened
  t.is(open.totals(40, null).fetchWaitMs, 40);
});

function rows(cohort: string, path: string, bytes: (session: number, round: number) => number): SampleRow[] {
  const out: SampleRow[] = [];
  for (let session = 1; session <= 3; session++)
    for (let round = 0; round < 6; round++) {
      const b = bytes(session, round);
      out.push(
        madeUpRow({
          cohort,
          path,
          state: 'cold',
          phase: 'formal',
          ok: true,
          session,
          round,
          content_bytes: b,
          ready_content_bytes: b - 10,
          ready_fetch_wait_ms: 30,
          ready_ms: 120,
        }),
      );
    }
  return out;
}

test('read shares (made-up launches): medians are the two-level ones, shares are of the image, and a peer figure is placed against the interval', (t) => {
  const opts = { resamples: 500, confidence: 0.95, seed: 'reads' };
  const data = [
    ...rows('shell', 'lazy-64k', (s, r) => 5_000_000 + 1000 * s + r), // about 5% of 100 MB
    ...rows('big', 'lazy-64k', (s, r) => 20_000_000 + 1000 * r + s), // 20% of 100 MB
    madeUpRow({ cohort: 'shell', path: 'lazy-64k', state: 'cold', phase: 'warmup', ok: true, session: 1, round: 0, content_bytes: 1 }), // not formal: left out
  ];
  const images = [
    { cohort: 'shell', image: 'i1', compressedBytes: 40_000_000, uncompressedBytes: 100_000_000 },
    { cohort: 'big', image: 'i2', compressedBytes: 40_000_000, uncompressedBytes: 100_000_000 },
  ];
  const r = readShares(data, images, 'lazy-64k', opts);
  const shell = r.cells.find((c) => c.cohort === 'shell')!;
  t.is(shell.launches, 18);
  const expected = twoLevelMedian(
    data
      .filter((x) => x.cohort === 'shell' && x.phase === 'formal')
      .map((x) => ({ session: Number(x.session), round: Number(x.round), value: Number(x.content_bytes) })),
    opts,
  );
  t.deepEqual(shell.completionBytes, expected);
  t.is(shell.readyWaitShare.medianMs, 0.25);
  const claim = (id: string) => r.claims.find((c) => c.id === id)!;
  t.is(claim('slacker-shell').verdict, 'below', 'ours (about 5%) is lower than 6.4%');
  t.is(claim('lambda-big').verdict, 'above', 'ours (about 20%) is higher than 6.5%');
  t.is(r.claims.length, PEER_SHARES.length * (images.length + 1), 'per image, and the mean over the images');
  t.true(Math.abs(claim('slacker-shell').ours!.median - expected.medianMs! / 100_000_000) < 1e-12);
  // a fleet average is set against the mean over the images: about (5% + 20%) / 2
  const mean = claim('slacker-mean');
  t.is(mean.cohort, MEAN_OVER_IMAGES);
  t.true(Math.abs(mean.ours!.median - (claim('slacker-shell').ours!.median + claim('slacker-big').ours!.median) / 2) < 1e-12);
  t.is(mean.verdict, 'above', 'ours (about 12.5%) is higher than 6.4%');
});

test('a peer with a read size of its own is read at it where the run has that path (made-up launches)', (t) => {
  const opts = { resamples: 200, confidence: 0.95, seed: 'reads' };
  const data = [...rows('shell', 'lazy-64k', () => 5_000_000), ...rows('shell', 'lazy-512k', () => 9_000_000)];
  const images = [{ cohort: 'shell', image: 'i1', compressedBytes: 40_000_000, uncompressedBytes: 100_000_000 }];
  const r = readShares(data, images, 'lazy-64k', opts, { 'lazy-64k': '64 KiB', 'lazy-512k': '512 KiB' });
  const claim = (id: string) => r.claims.find((c) => c.id === id)!;
  t.is(claim('lambda-mean').path, 'lazy-512k', "Lambda's 512 KiB chunks");
  t.is(claim('lambda-mean').verdict, 'above', '9% at 512 KiB against its 6.5%');
  t.is(claim('slacker-mean').path, 'lazy-64k');
  t.is(claim('slacker-mean').verdict, 'below', '5% at 64 KiB against its 6.4%');
});

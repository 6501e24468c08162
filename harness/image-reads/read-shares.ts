// Pure: how much of each image a cold start-up read (pipelines/image-reads.yaml).
// Per cell (image × read size), over the formal cold launches that succeeded:
// the image bytes fetched by Ready and by Completion, the files read, and the
// time waiting on those fetches by Ready, each a median with its two-level bootstrap interval
// (sessions, then rounds: the levels sampled, so a rerun on this host should
// expect it, not a rerun elsewhere). Shares divide by the image's size, a
// constant, so their intervals are the bytes' intervals scaled. A peer's
// figure is an average over many images (Slacker: 57; Lambda: its fleet), so
// it is set against the mean over this run's images (each image's median and
// interval ends averaged), read at the peer's own read size where the run has
// it (Lambda: 512 KiB chunks), else at the first path's; the per-image rows
// only show the spread a fleet figure averages over.
import type { SampleRow } from '../db/sample-row.js';
import type { BootstrapOptions } from '../stats/two-level-bootstrap.js';
import { twoLevelMedian, type MedianInterval } from '../stats/two-level-median.js';

/** An image's sizes from pins.json: its compressed layers and config, its uncompressed tar. */
export interface ImageSize {
  cohort: string;
  image: string;
  compressedBytes: number;
  uncompressedBytes: number;
}

export interface ReadCell {
  cohort: string;
  path: string;
  launches: number;
  readyBytes: MedianInterval;
  completionBytes: MedianInterval;
  readyWaitMs: MedianInterval;
  /** Per launch, the waiting by Ready over Ready (a share, 0–1). */
  readyWaitShare: MedianInterval;
  /** Files whose data the launch read (files_read), and the image's files (image_files, the same in every launch). */
  filesRead: MedianInterval;
  imageFiles: number | null;
}

/** A published figure and what this run says of it. */
export interface PeerClaim {
  id: string;
  source: string;
  /** The peer's share of an image read at start-up (0–1). */
  share: number;
  /** An image (its cohort), or MEAN_OVER_IMAGES: the comparison a fleet average answers. */
  cohort: string;
  path: string;
  /** This run's share of the uncompressed image read by Completion: median and interval. */
  ours: { median: number; low: number; high: number } | null;
  verdict: 'within' | 'above' | 'below' | 'not measured';
}

export interface ReadShares {
  images: ImageSize[];
  cells: ReadCell[];
  claims: PeerClaim[];
}

/** Peers' published shares of an image read at start-up, without intervals: averages over many images; `readSize`, the peer's own read size where it has one. */
export const PEER_SHARES: readonly { id: string; source: string; share: number; readSize?: string }[] = [
  { id: 'slacker', source: 'Slacker (FAST’16): 6.4% of an image’s data read at start-up, over 57 images', share: 0.064 },
  { id: 'lambda', source: 'AWS Lambda container loading (ATC’23): about 6.5% read, over its fleet, in 512 KiB chunks', share: 0.065, readSize: '512 KiB' },
];

/** The claim row of the mean over this run's images. */
export const MEAN_OVER_IMAGES = 'mean over images';

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** `readSizes`: each path's read size label ('64 KiB'), for a peer with a read size of its own; `peerPath` the path otherwise. */
export function readShares(
  rows: readonly SampleRow[],
  images: readonly ImageSize[],
  peerPath: string,
  options: BootstrapOptions,
  readSizes: Readonly<Record<string, string>> = {},
): ReadShares {
  const formal = rows.filter((r) => r['phase'] === 'formal' && r['ok'] === true && r['state'] === 'cold');
  const cells: ReadCell[] = [];
  for (const cohort of [...new Set(formal.map((r) => String(r['cohort'])))].sort())
    for (const path of [...new Set(formal.map((r) => String(r['path'])))].sort()) {
      const cell = formal.filter((r) => r['cohort'] === cohort && r['path'] === path);
      if (!cell.length) continue;
      const of = (value: (r: SampleRow) => number | null): MedianInterval =>
        twoLevelMedian(
          cell.flatMap((r) => {
            const v = value(r);
            return v === null ? [] : [{ session: Number(r['session']), round: Number(r['round']), value: v }];
          }),
          options,
        );
      cells.push({
        cohort,
        path,
        launches: cell.length,
        readyBytes: of((r) => num(r['ready_content_bytes'])),
        completionBytes: of((r) => num(r['content_bytes'])),
        readyWaitMs: of((r) => num(r['ready_fetch_wait_ms'])),
        readyWaitShare: of((r) => {
          const wait = num(r['ready_fetch_wait_ms']);
          const ready = num(r['ready_ms']);
          return wait !== null && ready ? wait / ready : null;
        }),
        filesRead: of((r) => num(r['files_read'])),
        imageFiles: cell.map((r) => num(r['image_files'])).find((v) => v !== null) ?? null,
      });
    }
  const claims: PeerClaim[] = [];
  const verdictOf = (share: number, ours: PeerClaim['ours']): PeerClaim['verdict'] =>
    !ours ? 'not measured' : share < ours.low ? 'above' : share > ours.high ? 'below' : 'within';
  for (const peer of PEER_SHARES) {
    const path = (peer.readSize && Object.keys(readSizes).find((id) => readSizes[id] === peer.readSize)) || peerPath;
    const perImage: PeerClaim[] = images.map((image) => {
      const b = cells.find((c) => c.cohort === image.cohort && c.path === path)?.completionBytes;
      const ours =
        b && b.medianMs !== null && b.lowMs !== null && b.highMs !== null
          ? { median: b.medianMs / image.uncompressedBytes, low: b.lowMs / image.uncompressedBytes, high: b.highMs / image.uncompressedBytes }
          : null;
      return {
        id: `${peer.id}-${image.cohort}`,
        source: peer.source,
        share: peer.share,
        cohort: image.cohort,
        path,
        ours,
        verdict: verdictOf(peer.share, ours),
      };
    });
    claims.push(...perImage);
    const measured = perImage.filter((c) => c.ours !== null);
    const mean = (f: (o: NonNullable<PeerClaim['ours']>) => number): number => measured.reduce((s, c) => s + f(c.ours!), 0) / measured.length;
    const ours =
      measured.length === images.length && measured.length > 0 ? { median: mean((o) => o.median), low: mean((o) => o.low), high: mean((o) => o.high) } : null;
    claims.push({ id: `${peer.id}-mean`, source: peer.source, share: peer.share, cohort: MEAN_OVER_IMAGES, path, ours, verdict: verdictOf(peer.share, ours) });
  }
  return { images: [...images], cells, claims };
}

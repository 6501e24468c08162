// The image-reads report as a document (pure): how much of each image a cold
// start-up read over the lazy path, at two read sizes, the peers' figures
// checked against it, and the Ready difference the read size makes (from the
// analyze stage's paired comparison).
import type { AnalysisResult, DifferenceResult } from '../analysis/analysis-result.js';
import type { DocumentRun } from '../publish/document-run.js';
import { hostNoiseBlocks } from '../publish/session-sections.js';
import { verdictText } from '../comparison/verdict-words.js';
import { list, paragraph, section, sentences, table, type ReportDocument } from '../document/document-model.js';
import { fixed } from '../publish/format-number.js';
import type { MedianInterval } from '../stats/two-level-median.js';
import { MEAN_OVER_IMAGES, type ReadCell, type ReadShares } from './read-shares.js';

export interface ReadsDocumentInput extends DocumentRun {
  title: string;
  question: string;
  scope: string;
  /** The read size of each path, e.g. {'lazy-64k': '64 KiB'}, or how it reads ('eStargz + prefetch'); the first is the peers' comparison. */
  readSizes: Readonly<Record<string, string>>;
  /** Each path's description (paths.<id>.description): how its cold launch reads the image. */
  pathDescriptions?: Readonly<Record<string, string>>;
  shares: ReadShares;
  /** The analyze stage's Ready differences between the read sizes. */
  readyDifferences: readonly DifferenceResult[];
}

const mb = (bytes: number | null): string => (bytes === null ? '–' : fixed(bytes / 1e6, 1));
const pct = (share: number): string => `${fixed(100 * share, share < 0.1 ? 2 : 1)}%`;
/** A median and its interval through `f`; one value when every resample gave the same (the same bytes in every launch). */
const interval = (m: MedianInterval, f: (v: number) => string): string =>
  m.medianMs === null ? '–' : m.lowMs === m.highMs ? f(m.medianMs) : `${f(m.medianMs)} [${f(m.lowMs!)}, ${f(m.highMs!)}]`;
const mbInterval = (m: MedianInterval): string => interval(m, mb);
const pctOf = (m: MedianInterval, size: number): string => interval(m, (v) => pct(v / size));
const msInterval = (m: MedianInterval): string => interval(m, (v) => fixed(v, 0));

export function readsDocument(p: ReadsDocumentInput): ReportDocument {
  const { images, cells, claims } = p.shares;
  const sizeOf = (path: string): string => p.readSizes[path] ?? path;
  // the paths whose label is a read size (the erofs paths' BENCHGRAPH_LAZY_CHUNK)
  const chunked = Object.keys(p.readSizes).filter((id) => /^\d+ [KM]iB$/.test(sizeOf(id)));
  const peerPath = Object.keys(p.readSizes)[0]!;
  const imageOf = (cohort: string) => images.find((i) => i.cohort === cohort)!;
  const byCompletion = (c: ReadCell): string => pctOf(c.completionBytes, imageOf(c.cohort).uncompressedBytes);
  const answer = cells
    .filter((c) => c.path === peerPath)
    .map((c) => `${c.cohort} ${byCompletion(c)}`)
    .join(', ');
  // files read: only where an after_cold hook counted them (harness/paths/files-read.sh)
  const counted = cells.some((c) => c.filesRead.medianMs !== null);
  const claimWords = { within: 'not told apart', above: 'higher', below: 'lower', 'not measured': 'not measured' };
  return {
    title: p.title,
    opening: [
      paragraph(`**Question:** ${p.question}`),
      paragraph(`**Scope:** ${p.scope}`),
      paragraph(
        `**Answer:** a cold start-up with ${sizeOf(peerPath)} reads fetched, by Completion, this share of its uncompressed image (median [95% interval]): ${answer}. Fetched bytes include the kernel’s read-ahead and whole-read rounding, so the workload itself needed at most that much.`,
      ),
      table(
        [
          'image',
          'reads',
          'uncompressed MB',
          'compressed MB',
          'MB by Ready',
          'MB by Completion',
          'share of uncompressed',
          'share of compressed',
          ...(counted ? ['files read'] : []),
          'waiting by Ready, ms',
          'waiting, share of Ready',
        ],
        cells.map((c) => {
          const img = imageOf(c.cohort);
          return [
            c.cohort,
            sizeOf(c.path),
            mb(img.uncompressedBytes),
            mb(img.compressedBytes),
            mbInterval(c.readyBytes),
            mbInterval(c.completionBytes),
            byCompletion(c),
            pctOf(c.completionBytes, img.compressedBytes),
            ...(counted ? [filesRead(c)] : []),
            msInterval(c.readyWaitMs),
            interval(c.readyWaitShare, pct),
          ];
        }),
        `Cold launches; medians with 95% two-level bootstrap intervals over ${p.sessions} session${p.sessions === 1 ? '' : 's'} × ${p.rounds} rounds (a single value where every resample gave the same median); MB = 10^6 bytes; shares are of Completion's bytes.`,
      ),
    ],
    sections: [
      ...section('Claims checked', [
        table(
          ['claim', 'read at', `mean over the ${images.length} images: ours is`, ...images.map((i) => `${i.cohort} alone`)],
          [...new Set(claims.map((c) => c.source))].map((source) => {
            const mine = claims.filter((c) => c.source === source);
            const mean = mine.find((c) => c.cohort === MEAN_OVER_IMAGES);
            const shown = (c: (typeof claims)[number] | undefined): string =>
              c?.ours ? `${claimWords[c.verdict]}: ${pct(c.ours.median)} [${pct(c.ours.low)}, ${pct(c.ours.high)}]` : 'not measured';
            return [source, sizeOf(mine[0]!.path), shown(mean), ...images.map((i) => shown(mine.find((c) => c.cohort === i.cohort)))];
          }),
          "Against this run's share of the uncompressed image by Completion (its median and the ends of its 95% interval, each averaged over the images for the mean), at the peer's own read size where this run has it.",
        ),
        paragraph(
          `Each peer's figure is an average over many images, without an interval: it is set against the mean over this run's ${images.length} images, and an image alone only shows how far one image lies from an average, confirming or refuting nothing. The denominator here is the uncompressed image; a share of the compressed bytes (summary table) is larger. Slacker also reports that pulling takes 76% of a container’s start-up; that is a complete pull, which this experiment does not run (the default experiment does).`,
        ),
      ]),
      ...section('What the way of reading changes', [
        paragraph(
          `${chunked.length > 1 ? `Each on-demand read of the erofs paths fetches ${chunked.map(sizeOf).join(' or ')} from the file server, so a larger read size can fetch more of the image for the same start-up. ` : ''}Ready of each path against ${sizeOf(peerPath)} (a − b, paired by round; differences.csv), each verdict from the ${p.sessions} sessions of this run alone:`,
        ),
        list(
          p.readyDifferences.map((d) => {
            const v = !d.verdict
              ? 'no verdict'
              : d.verdict.verdict === 'higher'
                ? `slower with ${sizeOf(d.a)}`
                : d.verdict.verdict === 'lower'
                  ? `faster with ${sizeOf(d.a)}`
                  : verdictText(d.verdict);
            const ratio = bytesRatio(cells, d.cohort, d.a, d.b);
            return `${d.cohort}, ${sizeOf(d.a)} against ${sizeOf(d.b)}: ${d.observedMs === null ? '–' : `${fixed(d.observedMs, 0)} ms [${fixed(d.lowMs!, 0)}, ${fixed(d.highMs!, 0)}]`}, ${v}${ratio === null ? '' : `; ×${fixed(ratio, 1)} the bytes`}`;
          }),
        ),
        sentences([
          cells.some((c) => c.completionBytes.medianMs !== null && c.completionBytes.medianMs > imageOf(c.cohort).uncompressedBytes) &&
            'A share above 100% means that ranges of the image were fetched more than once in one start-up.',
        ]),
      ]),
      ...section('How it was measured', [
        list(
          [
            p.pathDescriptions && Object.keys(p.pathDescriptions).length
              ? `Every cold launch mounts the image afresh, with an empty page cache and no client cache, so every byte the start-up needs is fetched; each path reads it its own way: ${Object.entries(
                  p.pathDescriptions,
                )
                  .map(([id, d]) => `${sizeOf(id)}, ${d.replace(/\.$/, '')}`)
                  .join('; ')}.`
              : 'Every cold launch mounts the image afresh: an rclone mount of the erofs file over HTTP with no cache of its own, no read-ahead and FUSE reads one at a time, the kernel’s erofs on it, then `crun run` (harness/paths/lazy-launch.sh). The page cache of the new mount is empty, so every byte the start-up needs is fetched.',
            'Bytes are the HTTP body bytes of image data the server sent (the file server for erofs, the registry for eStargz), counted by a proxy on loopback in a window opened just before spawn (content_bytes). Bytes by Ready are those that had arrived when the marker line was read (ready_content_bytes).',
            'Waiting is the time during which at least one request was outstanding at the proxy, from reading it to the last byte of its response (ready_fetch_wait_ms): time the start-up could not proceed without the server, excluding FUSE and the kernel.',
            'Sizes: compressed is the gzip layers and config the registry would serve; uncompressed is the image’s tar (pins.json). The erofs file the lazy paths read is about the uncompressed size; an eStargz image, a gzip stream per file with its table of contents, is a little larger than the compressed size.',
            counted &&
              'Files read: right after each cold launch, untimed and after its byte window closed, `fincore` counts the image’s regular files with data in the page cache of the fresh mount (harness/paths/files-read.sh). A file only opened or stat’ed is not counted; one whose data came in with a neighbour’s read-ahead is.',
            `The intervals cover ${p.sessions} sessions and their rounds on this host. The bytes depend on the image, the workload and the read size, not on the host’s speed, so a rerun elsewhere with the same images should fetch close to the same bytes; the waiting is a time and moves with the host.`,
          ].filter((x): x is string => typeof x === 'string'),
        ),
      ]),
      ...section('Not measured', [list(p.unmeasured)]),
      ...section('Notes', [p.notes.length ? list(p.notes) : null]),
    ],
    appendix: [
      ...section('Sessions and host noise', hostNoiseBlocks(p.sessionRecords, p.noise ? { noise: p.noise } : {}, 'here')),
      ...section('Provenance', [sentences(['The stages this report was rendered from:']), list(p.provenance)]),
    ],
  };
}

/** Median bytes by Completion of path a over path b for one image; null when either is missing. */
function bytesRatio(cells: readonly ReadCell[], cohort: string, a: string, b: string): number | null {
  const of = (path: string) => cells.find((c) => c.cohort === cohort && c.path === path)?.completionBytes.medianMs ?? null;
  const [x, y] = [of(a), of(b)];
  return x !== null && y ? x / y : null;
}

/** Files read by the launch, and their share of the image's files when the hook counted those too. */
function filesRead(c: ReadCell): string {
  const count = interval(c.filesRead, (v) => fixed(v, 0));
  return c.imageFiles ? `${count} of ${c.imageFiles} (${interval(c.filesRead, (v) => pct(v / c.imageFiles!))})` : count;
}

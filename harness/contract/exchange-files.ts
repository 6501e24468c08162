// The files stages hand to each other, one typed shape each, and the one way to
// find them among a stage's inputs (sorted stage ids; products before
// observations). A stage that writes one of these files writes this shape.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StageContext, StageInput } from './stage.js';
import { UserError } from '../errors.js';
import type { HostNoise } from '../process/host-noise.js';
import type { DiskProbe } from '../process/disk-probe.js';
import type { HostFingerprint } from '../process/host-fingerprint.js';
import type { HostCounterDelta } from '../process/host-counters.js';

/** An OCI image in the pin stage's layout: single-layer when built by it, any number of layers when brought by the user. */
export interface OciImagePin {
  manifestDigest: string;
  manifestSize: number;
  configDigest: string;
  configSize: number;
  layers: { digest: string; size: number; diffId: string; mediaType?: string }[];
}

/** An image the user brought (registry, oci-archive, docker-archive, oci-layout): its digests as found at the source. */
export interface ImageSourcePin {
  kind: string;
  /** Digest of the manifest or index the source holds (sha256 of its raw bytes), as the source report's "pinned to … digest". */
  sourceDigest: string;
  sourceMediaType: string;
  /** The index's digest when the source is a multi-platform index. */
  indexDigest?: string;
  /** The platform manifest's digest at the source (differs from manifestDigest only when skopeo converted a Docker manifest to OCI). */
  platformManifestDigest: string;
  platform: string;
  /** The config digest at the source when it is a single manifest (a Docker image id; skopeo's OCI conversion gives the copy another). */
  sourceConfigDigest?: string;
  /** The digest the pipeline file pinned, if any. */
  pinnedDigest?: string;
}

export interface ImagePin extends OciImagePin {
  tarSha256: string;
  tarBytes: number;
  erofsSha256: string;
  erofsBytes: number;
  recipeHash: string;
  /** Paths relative to the pin stage's products. */
  tarFile: string;
  ociDir: string;
  erofsFile: string;
  repository: string;
  kind: string;
  /** Set for images the user brought; the paths it came from are observations (sources.json), never products. */
  source?: ImageSourcePin;
}

export interface BinaryPin {
  name: string;
  path: string;
  version: string;
  sha256: string;
}

/** pins.json (pin, product): every image and binary by digest. */
export interface Pins {
  images: Record<string, ImagePin>;
  binaries: BinaryPin[];
  kernel: string;
  node: string;
}

/** images.json (prepare, product): template fields of each image as the services serve it. */
export interface PreparedImages {
  images: Record<
    string,
    {
      repository: string;
      manifest_digest: string;
      config_digest: string;
      config_size: number;
      erofs_file?: string;
      erofs_bytes?: number;
      /** A registry with with.estargz: the image converted to eStargz without a prefetch landmark (tag estargz). */
      estargz_digest?: string;
      /** …and per cohort of the image, converted with a landmark of that cohort's start-up (tag estargz-<cohort>). */
      estargz_cohort_digests?: Record<string, string>;
    }
  >;
}

/** preparation.json (prepare, observation): one wall time per preparation operation. */
export interface PreparationCost {
  service: string;
  artifact: string;
  operation: string;
  seconds: number;
}

/** session.json (sample or import-samples, product): the design the samples were taken under. */
export interface SamplingSummary {
  seed?: string | number;
  rounds?: number;
  warmupRounds?: number;
  preflight?: number;
  paths?: string[];
  cohorts?: string[];
  states?: string[];
  /** Number of independent sampling sessions (design.sessions). */
  sessions?: number;
  /** Number of times the sampling stage was started before its samples were complete (1 when never interrupted). */
  attempts?: number;
  formalLaunches?: number;
  formalFailures?: number;
  hosts?: string[];
}

/** sessions.json (sample, observation): one record per session each attempt ran. */
export interface SessionRecord {
  session: number;
  attempt: number;
  host: string;
  startedAt: string;
  endedAt: string;
  /** The host's other load over the session (CPU shares, foreign processes) and the noisy-session rule's verdict; never a reason to drop it. */
  noise: HostNoise & { noisy: boolean; reasons: string[] };
  /** The host's settings (harness/process/host-fingerprint.ts); absent in sessions recorded before it existed. */
  fingerprint?: HostFingerprint;
  /** Disk probes of the data folder's file system at the session's start and end (process/disk-probe.ts); absent in records written before them. */
  disk?: { start: DiskProbe; end: DiskProbe };
  /** The host canary of the session (experiment/host-canary.ts); absent when design.canary is off and in records written before it. */
  canary?: SessionCanary;
  /** The whole-run ETA the session's progress line showed last (experiment/run-eta.ts); absent in a session job's record (it sees its session only), before a timed launch, and in records written before it. */
  eta?: SessionEta;
}

/** An ETA as shown: when, the run's remaining time and the session's, and whether it counted a session that may not run. */
export interface SessionEta {
  shownAt: string;
  runMs: number;
  sessionMs: number;
  upperBound: boolean;
}

/** The host canary of one session: its launches (journaled as phase 'canary' rows), its cost, and the host's own counters from its start to the session's end. */
export interface SessionCanary {
  /** Canary launches this attempt journaled (0 when an earlier attempt of the session already had). */
  launches: number;
  /** Wall time of the canary, launch helper start to its close, ms. */
  wallMs: number;
  /** Why it did not run in this attempt, or null. */
  skipped: string | null;
  /** From the canary's start to the session's end. */
  counters: HostCounterDelta;
}

/** host.json (effects-sample, observation): facts of the host that sampled, so a report never describes the host that renders it. */
export interface SamplingHost {
  host: string;
  cpus: number;
  memoryGiB: number;
  kernel: string;
  runsc: string | null;
}

/** verify.json (verify, product). */
export interface VerifyResult {
  ok: boolean;
  artifacts: { name: string; expectedSha256: string; actualSha256: string; ok: boolean }[];
  samples?: { formal?: number; failed?: number };
}

export interface ExchangeShapes {
  'pins.json': Pins;
  'images.json': PreparedImages;
  'preparation.json': PreparationCost[];
  'session.json': SamplingSummary;
  'verify.json': VerifyResult;
}

export interface FoundInput {
  input: StageInput;
  file: string;
  /** The folder holding the file (the stage's products or observations). */
  dir: string;
}

/** The first needed stage (by sorted id) whose products, or else observations, hold `name`. */
export function findInputFile(inputs: Record<string, StageInput>, name: string): FoundInput | null {
  for (const dirOf of [(i: StageInput) => i.outputDir, (i: StageInput) => i.observationsDir]) {
    for (const id of Object.keys(inputs).sort()) {
      const input = inputs[id]!;
      const file = join(dirOf(input), name);
      if (existsSync(file)) return { input, file, dir: dirOf(input) };
    }
  }
  return null;
}

/** The error of a stage whose needs lack the stage that writes `file`: it names the stage, the file and where to add it. */
export function missingInput(
  ctx: Pick<StageContext, 'id' | 'pipelineFile'>,
  file: string,
  writer: string,
  hint = `add the ${writer} stage to needs`,
): UserError {
  return new UserError(`stage ${ctx.id} needs the ${writer} stage (for ${file})`, { file: ctx.pipelineFile, key: `stages.${ctx.id}.needs` }, hint);
}

/** An input file the stage cannot run without: found among its inputs, else missingInput. */
export function needInputFile(ctx: Pick<StageContext, 'id' | 'pipelineFile' | 'inputs'>, file: string, writer: string, hint?: string): FoundInput {
  const found = findInputFile(ctx.inputs, file);
  if (!found) throw missingInput(ctx, file, writer, hint);
  return found;
}

/** Reads an exchange file from the inputs, typed by its name; null when no input has it. */
export function readExchange<N extends keyof ExchangeShapes>(inputs: Record<string, StageInput>, name: N): { value: ExchangeShapes[N]; dir: string } | null {
  const found = findInputFile(inputs, name);
  if (!found) return null;
  return { value: JSON.parse(readFileSync(found.file, 'utf8')) as ExchangeShapes[N], dir: found.dir };
}

/**
 * The pinned tar of image `imageId` (pins.json of the needed pin stage), for a
 * stage that unpacks or imports it. A missing pin stage or image is a user
 * error at `key` of the pipeline file.
 */
export function pinnedImageTar(inputs: Record<string, StageInput>, imageId: string, at: { file: string; stageId: string; key: string }): string {
  const pins = readExchange(inputs, 'pins.json');
  if (!pins)
    throw new UserError(
      `stage ${at.stageId} uses image '${imageId}' but does not need the pin stage`,
      { file: at.file, key: `stages.${at.stageId}.needs` },
      'add pin to needs',
    );
  const pin = pins.value.images[imageId];
  if (!pin)
    throw new UserError(
      `image '${imageId}' is not among the pinned images (${Object.keys(pins.value.images).join(', ') || 'none'})`,
      { file: at.file, key: at.key },
      'name an image of artifacts.images',
    );
  return join(pins.dir, pin.tarFile);
}

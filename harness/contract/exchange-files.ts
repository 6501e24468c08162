// The files stages hand to each other, one typed shape each, and the one way to
// find them among a stage's inputs (sorted stage ids; products before
// observations). A stage that writes one of these files writes this shape.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StageInput } from './stage.js';
import type { HostNoise } from '../process/host-noise.js';
import type { HostFingerprint } from '../process/host-fingerprint.js';

/** A single-layer OCI image, as built by the pin stage. */
export interface OciImagePin {
  manifestDigest: string;
  manifestSize: number;
  configDigest: string;
  configSize: number;
  layers: { digest: string; size: number; diffId: string }[];
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
    { repository: string; manifest_digest: string; config_digest: string; config_size: number; erofs_file?: string; erofs_bytes?: number }
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

/** Reads an exchange file from the inputs, typed by its name; null when no input has it. */
export function readExchange<N extends keyof ExchangeShapes>(inputs: Record<string, StageInput>, name: N): { value: ExchangeShapes[N]; dir: string } | null {
  const found = findInputFile(inputs, name);
  if (!found) return null;
  return { value: JSON.parse(readFileSync(found.file, 'utf8')) as ExchangeShapes[N], dir: found.dir };
}

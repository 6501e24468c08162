// What a service kind is, in one place: how it starts, how the prepare stage
// fills its data folder from the pinned images, which of its stored files the
// verify stage re-hashes, and which of its responses are image data (the one
// rule for content bytes). Stages and the engine dispatch through this; no
// code outside a kind's module asks which kind a service is.
import type { ServiceSection } from '../config/pipeline-config.js';
import type { ImagePin, Pins, PreparationCost, PreparedImages } from '../contract/exchange-files.js';
import type { ServiceStarter } from './started-service.js';

export interface PrepareContext {
  serviceId: string;
  section: ServiceSection;
  /** The service's data folder in the prepare stage's products (outputs/services/<id>). */
  target: string;
  /** Scratch folder for processes started while preparing. */
  runDir: string;
  pins: Pins;
  /** The pin stage's products folder (pin paths are relative to it). */
  pinDir: string;
  /** Folder of the pipeline file (a user's prepare command runs there). */
  pipelineDir: string;
  /** Repository tag used when pushing. */
  tag: string;
  /** The pipeline's cohorts: the image each starts and its command (an eStargz landmark records a cohort's start-up). */
  cohorts: Record<string, { image?: string; command: readonly string[] }>;
  log: (line: string) => void;
  signal: AbortSignal;
}

export interface Prepared {
  /** One wall time per operation: observations. */
  preparations: PreparationCost[];
  /** Template fields this service adds to each image. */
  images: Record<string, Partial<PreparedImages['images'][string]>>;
}

export interface StoredArtifact {
  name: string;
  file: string;
  sha256: string;
}

export interface ServiceKind {
  kind: string;
  start: ServiceStarter;
  /**
   * Request paths whose response bodies are image data. Content bytes are the
   * bodies of these responses only, for every kind; everything the server
   * sends is counted apart as response bytes. Null: nothing is content.
   */
  contentPath: RegExp | null;
  /** Fills the service's prepared data folder from the pinned images (the prepare stage). */
  prepare?: (ctx: PrepareContext) => Promise<Prepared>;
  /** Files in the prepared data folder that must equal a pin, for the verify stage. */
  storedArtifacts?: (storage: string, imageId: string, pin: ImagePin) => StoredArtifact[];
}

/** Wall seconds of an async operation (monotonic clock). */
export async function timedSeconds(fn: () => Promise<void>): Promise<number> {
  const t0 = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

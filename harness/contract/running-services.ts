// What a stage sees of the services the engine started for it.
import type { ByteCounts } from '../net/byte-window.js';

export interface ServiceEndpoint {
  /** Service id from pipeline.yaml `services:`. */
  id: string;
  kind: string;
  /** Base URL clients should use (the byte-counting proxy when bytes are counted). */
  url?: string;
  /** Host:port clients should use, e.g. 127.0.0.1:41234 (the proxy when counted). */
  address?: string;
  /** Unix socket path, for services reached through one (a private Docker engine). */
  socket?: string;
  /** Any other values the service offers to command templates ({services.ID.NAME}). */
  values: Record<string, string>;
}

/** What a counted service sent during one launch (net/byte-window.ts; services summed). */
export type { ByteCounts };

/** Attributes bytes to the launch in progress. */
export interface ByteCounter {
  begin(launchId: string): void;
  /** Ends the window and returns the bytes counted in it (all counted services summed), cut at `readyMs` after it opened too. */
  end(readyMs?: number | null): ByteCounts;
}

/** A service process that ended while the session still needed it. */
export interface ServiceDeath {
  id: string;
  kind: string;
  pid: number;
  /** Exit code or signal name, e.g. SIGKILL. */
  how: string;
}

export interface RunningServices {
  byId: Record<string, ServiceEndpoint>;
  counter: ByteCounter | null;
  /** Services whose process ended before the session stopped them (none when absent). */
  deaths?: () => readonly ServiceDeath[];
}

export const noServices: RunningServices = { byId: {}, counter: null };

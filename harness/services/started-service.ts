// What starting a service gives the engine (see docs/CONTRACTS.md).

export interface StartedService {
  endpoint: { url?: string; address?: string; socket?: string; values: Record<string, string> };
  /** Where a byte-counting proxy should forward to. */
  upstream?: { host: string; port: number };
  /** Stops every process of the service and waits until they are gone and their sockets closed. */
  stop(): Promise<void>;
}

// The service kinds the engine can start (see docs/CONTRACTS.md), one module
// each: every kind starts its processes on 127.0.0.1 only (or a unix socket),
// registers them with onCleanup, and stops them by their own pid.
import type { ServiceSection } from '../config/pipeline-config.js';
import { UserError } from '../errors.js';
import { dockerEngineKind } from './docker-engine-service.js';
import { dockerRegistryKind } from './docker-registry-service.js';
import { nginxFilesKind } from './nginx-files-service.js';
import { commandKind } from './command-service.js';
import type { ServiceKind } from './service-kind.js';
import type { ServiceStarter } from './started-service.js';

export type { ServiceStarter, StartedService } from './started-service.js';
export type { ServiceKind } from './service-kind.js';

export const SERVICE_KINDS: Record<string, ServiceKind> = Object.fromEntries(
  [dockerRegistryKind, nginxFilesKind, dockerEngineKind, commandKind].map((k) => [k.kind, k]),
);

/** The module of a service's kind; a user error naming the key when the kind is unknown. */
export function serviceKind(id: string, section: ServiceSection): ServiceKind {
  const kind = SERVICE_KINDS[section.kind];
  if (!kind)
    throw new UserError(`unknown service kind '${section.kind}'`, { key: `services.${id}.kind` }, `use one of: ${Object.keys(SERVICE_KINDS).join(', ')}`);
  return kind;
}

export const startService: ServiceStarter = async (id, section, preparedDir, runDir, log) =>
  serviceKind(id, section).start(id, section, preparedDir, runDir, log);

// Service kind `docker-registry`: Debian's docker-registry (Distribution 2.x)
// with filesystem storage, on 127.0.0.1 only, its config generated into the
// run folder. Started from prepared data it is read-only (pulls never write).
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { UserError } from '../errors.js';
import { freeLoopbackPort } from './free-port.js';
import { registryConfigYaml } from './registry-config.js';
import { canConnect, loopbackTcpService, startProcess, waitUntil } from './service-process.js';
import type { ServiceStarter } from './started-service.js';

export const startDockerRegistry: ServiceStarter = async (id, section, preparedDir, runDir, log) => {
  const storageDir = preparedDir ?? join(runDir, 'storage');
  if (preparedDir && !existsSync(preparedDir)) {
    throw new UserError(`prepared data of service ${id} is missing: ${preparedDir}`, { key: `services.${id}.data_from` }, 'run the prepare stage again');
  }
  mkdirSync(storageDir, { recursive: true });
  mkdirSync(runDir, { recursive: true });
  const readOnly = section.with['read_only'] === undefined ? preparedDir !== undefined : Boolean(section.with['read_only']);
  const binary = String(section.with['binary'] ?? 'docker-registry');
  const port = await freeLoopbackPort();
  const configFile = join(runDir, 'registry.yml');
  writeFileSync(configFile, registryConfigYaml({ storageDir, port, readOnly, httpSecret: randomBytes(16).toString('hex') }));
  const logFile = join(runDir, 'registry.log');
  const proc = startProcess(`registry ${id}`, binary, ['serve', configFile], logFile);
  await waitUntil(`registry ${id}`, proc, logFile, () => canConnect('127.0.0.1', port));
  log(`service ${id}: docker-registry on 127.0.0.1:${port} (pid ${proc.pid}${readOnly ? ', read-only' : ''})`);
  return loopbackTcpService(proc, port, { storage: storageDir });
};

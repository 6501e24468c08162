// Service kind `nginx-files`: Debian nginx-light serving one folder (the
// prepared data, e.g. erofs images) with Range support on 127.0.0.1 only.
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UserError } from '../errors.js';
import { freeLoopbackPort } from './free-port.js';
import { nginxConfig } from './nginx-config.js';
import { canConnect, loopbackTcpService, startProcess, waitUntil } from './service-process.js';
import type { ServiceStarter } from './started-service.js';

export const startNginxFiles: ServiceStarter = async (id, section, preparedDir, runDir, log) => {
  const rootDir = resolve(preparedDir ?? String(section.with['root'] ?? join(runDir, 'files')));
  if (!existsSync(rootDir)) {
    if (preparedDir) throw new UserError(`prepared data of service ${id} is missing: ${rootDir}`, { key: `services.${id}.data_from` }, 'run the prepare stage again');
    mkdirSync(rootDir, { recursive: true });
  }
  const ngDir = resolve(runDir);
  mkdirSync(join(ngDir, 'logs'), { recursive: true });
  mkdirSync(join(ngDir, 'tmp'), { recursive: true });
  const binary = String(section.with['binary'] ?? 'nginx');
  const port = await freeLoopbackPort();
  const configFile = join(ngDir, 'nginx.conf');
  writeFileSync(configFile, nginxConfig({ rootDir, runDir: ngDir, port, workersAsRoot: process.getuid?.() === 0 }));
  const logFile = join(ngDir, 'logs', 'stderr.log');
  const proc = startProcess(`nginx ${id}`, binary, ['-p', ngDir, '-c', configFile, '-e', join(ngDir, 'logs', 'error.log')], logFile);
  await waitUntil(`nginx ${id}`, proc, join(ngDir, 'logs', 'error.log'), () => canConnect('127.0.0.1', port));
  log(`service ${id}: nginx on 127.0.0.1:${port} serving ${rootDir} (pid ${proc.pid})`);
  return loopbackTcpService(proc, port, { root: rootDir });
};

// Service kind `nginx-files`: Debian nginx-light serving one folder (the
// prepared data, e.g. erofs images) with Range support on 127.0.0.1 only.
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UserError } from '../errors.js';
import { freeLoopbackPort } from './free-port.js';
import { nginxConfig } from './nginx-config.js';
import { canConnect, loopbackTcpService, startProcess, waitUntil } from './service-process.js';
import type { ServiceStarter } from './started-service.js';
import { timedSeconds, type ServiceKind } from './service-kind.js';
import { buildErofsImage } from '../artifacts/erofs-image.js';
import { sha256File } from '../digest/sha256.js';
import { CheckFailed } from '../errors.js';
import { statSync } from 'node:fs';

export const startNginxFiles: ServiceStarter = async (id, section, preparedDir, runDir, log) => {
  const rootDir = resolve(preparedDir ?? String(section.with['root'] ?? join(runDir, 'files')));
  if (!existsSync(rootDir)) {
    if (preparedDir)
      throw new UserError(`prepared data of service ${id} is missing: ${rootDir}`, { key: `services.${id}.data_from` }, 'run the prepare stage again');
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

export const nginxFilesKind: ServiceKind = {
  kind: 'nginx-files',
  start: startNginxFiles,
  // Image data: the erofs image files (uncompressed), read in ranges; a listing or any other body is not content.
  contentPath: /\.erofs(?:\?|$)/,
  async prepare(ctx) {
    mkdirSync(ctx.target, { recursive: true });
    const out: Awaited<ReturnType<NonNullable<ServiceKind['prepare']>>> = { preparations: [], images: {} };
    for (const [imageId, img] of Object.entries(ctx.pins.images)) {
      const file = `${imageId}.erofs`;
      const built = join(ctx.target, file);
      const seconds = await timedSeconds(() => buildErofsImage(join(ctx.pinDir, img.tarFile), built, ctx.signal));
      const sha = await sha256File(built);
      if (sha !== img.erofsSha256) {
        throw new CheckFailed(`erofs image of ${imageId} built for ${ctx.serviceId} differs from its pin`, [`pinned ${img.erofsSha256}`, `built  ${sha}`]);
      }
      out.images[imageId] = { erofs_file: file, erofs_bytes: statSync(built).size };
      out.preparations.push({ service: ctx.serviceId, artifact: imageId, operation: 'build erofs image (tar extract + mkfs.erofs)', seconds });
      ctx.log(`prepare: ${ctx.serviceId}: built ${file} in ${seconds.toFixed(3)} s`);
    }
    return out;
  },
  storedArtifacts(storage, imageId, pin) {
    return [{ name: `${imageId}: ${imageId}.erofs`, file: join(storage, `${imageId}.erofs`), sha256: pin.erofsSha256 }];
  },
};

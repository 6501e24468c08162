// A real Distribution registry (Debian docker-registry) on 127.0.0.1 for the
// store tests: filesystem storage in a temporary folder, optionally TLS with a
// test CA (made with openssl) and htpasswd basic auth (bcrypt, `htpasswd -B`).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freeLoopbackPort } from '../../harness/services/free-port.js';
import { canConnect, startProcess, waitUntil } from '../../harness/services/service-process.js';
import { tempDir } from './cli.js';

export interface TestRegistry {
  address: string;
  storageDir: string;
  /** PEM of the CA, with TLS. */
  caFile: string | null;
  stop(): Promise<void>;
}

export interface RegistryOptions {
  tls?: boolean;
  /** user -> password, served by htpasswd basic auth */
  users?: Record<string, string>;
}

/** A test CA and a certificate for 127.0.0.1 signed by it. */
function makeCertificates(dir: string): { ca: string; cert: string; key: string } {
  const ca = join(dir, 'ca.pem');
  const caKey = join(dir, 'ca-key.pem');
  const key = join(dir, 'key.pem');
  const csr = join(dir, 'req.csr');
  const cert = join(dir, 'cert.pem');
  const ext = join(dir, 'ext.cnf');
  const q = { stdio: 'ignore' as const };
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', caKey, '-out', ca, '-days', '2', '-subj', '/CN=benchgraph test CA'], q);
  execFileSync('openssl', ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', csr, '-subj', '/CN=127.0.0.1'], q);
  writeFileSync(ext, 'subjectAltName=IP:127.0.0.1\n');
  execFileSync('openssl', ['x509', '-req', '-in', csr, '-CA', ca, '-CAkey', caKey, '-CAcreateserial', '-out', cert, '-days', '2', '-extfile', ext], q);
  return { ca, cert, key };
}

export async function startTestRegistry(opts: RegistryOptions = {}): Promise<TestRegistry> {
  const dir = tempDir('benchgraph-registry-');
  const storageDir = join(dir, 'storage');
  mkdirSync(storageDir);
  const port = await freeLoopbackPort();
  const lines = [
    'version: 0.1',
    'log:',
    '  level: warn',
    '  accesslog:',
    '    disabled: true',
    'storage:',
    '  filesystem:',
    `    rootdirectory: ${JSON.stringify(storageDir)}`,
    '  maintenance:',
    '    uploadpurging:',
    '      enabled: false',
    '  delete:',
    '    enabled: false',
    'http:',
    `  addr: 127.0.0.1:${port}`,
    '  secret: store-test-secret',
  ];
  let caFile: string | null = null;
  if (opts.tls) {
    const c = makeCertificates(dir);
    caFile = c.ca;
    lines.push('  tls:', `    certificate: ${JSON.stringify(c.cert)}`, `    key: ${JSON.stringify(c.key)}`);
  }
  if (opts.users) {
    const file = join(dir, 'htpasswd');
    writeFileSync(file, '');
    for (const [user, password] of Object.entries(opts.users)) execFileSync('htpasswd', ['-B', '-b', file, user, password], { stdio: 'ignore' });
    lines.push('auth:', '  htpasswd:', '    realm: benchgraph-test', `    path: ${JSON.stringify(file)}`);
  }
  const configFile = join(dir, 'registry.yml');
  writeFileSync(configFile, lines.join('\n') + '\n');
  const logFile = join(dir, 'registry.log');
  const proc = startProcess('test registry', 'docker-registry', ['serve', configFile], logFile);
  const killAtExit = (): void => {
    try {
      process.kill(proc.pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  };
  process.on('exit', killAtExit);
  await waitUntil('test registry', proc, logFile, () => canConnect('127.0.0.1', port));
  return {
    address: `127.0.0.1:${port}`,
    storageDir,
    caFile,
    stop: async () => {
      process.off('exit', killAtExit);
      await proc.stop(5000);
    },
  };
}

// Effects: the HTTP client of the OCI distribution API for one repository.
// Plain HTTP for a loopback registry without a CA file, HTTPS otherwise, with
// a custom CA from --ca, $BENCHGRAPH_REGISTRY_CA or Docker's
// /etc/docker/certs.d/<registry>/ca.crt. A 401 is answered once per client:
// a Bearer challenge gets a token from its realm (with the Docker credentials,
// if any), a Basic challenge gets the credentials. Every failure is one
// RegistryError line naming the registry's answer and a remedy.
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseChallenge } from './auth-challenge.js';
import { credentialsFor, dockerConfigFile, type Credentials } from './docker-credentials.js';
import { isLoopbackRegistry } from './registry-ref.js';
import { RegistryError, registryErrorCode, remedyFor } from './registry-error.js';

export interface ClientOptions {
  /** PEM file of the CA that signed the registry's certificate. */
  caFile?: string | null;
  /** 'pull' or 'pull,push': the scope a Bearer token is asked for. */
  actions: 'pull' | 'pull,push';
  /** Credentials to use instead of the Docker configuration's (tests pass null for anonymous). */
  credentials?: Credentials | null;
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface SendOptions {
  headers?: Record<string, string>;
  body?: Buffer;
}

const TLS_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'EPROTO',
]);

export function caFileFor(registry: string, given: string | null | undefined, env: NodeJS.ProcessEnv = process.env): string | null {
  if (given) return given;
  if (env['BENCHGRAPH_REGISTRY_CA']) return env['BENCHGRAPH_REGISTRY_CA'];
  const docker = join('/etc/docker/certs.d', registry, 'ca.crt');
  return existsSync(docker) ? docker : null;
}

export class OciClient {
  readonly base: string;
  private readonly ca: Buffer | undefined;
  private agent: http.Agent | HttpsAgent | null = null;
  private readonly secure: boolean;
  private authorization: string | null = null;
  private credentials: Credentials | null | undefined;
  /** The credentials sent were answered 401. */
  private refused = false;

  constructor(
    readonly registry: string,
    readonly repository: string,
    private readonly options: ClientOptions,
  ) {
    const caFile = caFileFor(registry, options.caFile);
    if (caFile && !existsSync(caFile))
      throw new RegistryError(
        registry,
        null,
        null,
        `CA file ${caFile} does not exist`,
        'pass the PEM file of the CA that signed the registry certificate: --ca FILE',
      );
    this.ca = caFile ? readFileSync(caFile) : undefined;
    this.secure = !(isLoopbackRegistry(registry) && !caFile);
    this.base = `${this.secure ? 'https' : 'http'}://${registry}`;
    this.credentials = options.credentials;
  }

  /** `/v2/<repository>/<rest>` */
  path(rest: string): string {
    return `/v2/${this.repository}/${rest}`;
  }

  close(): void {
    this.agent?.destroy();
  }

  /** Sends a request (authenticating on a 401) and reads the whole answer. */
  async send(method: string, target: string, opts: SendOptions = {}): Promise<Answer> {
    const res = await this.open(method, target, opts);
    return { status: res.statusCode ?? 0, headers: res.headers, body: await readAll(res) };
  }

  /** Sends a request (authenticating on a 401, following one redirect) and returns the unread answer. */
  async open(method: string, target: string, opts: SendOptions = {}): Promise<IncomingMessage> {
    let res = await this.raw(method, this.url(target), opts, true);
    if (res.statusCode === 401) {
      const challenge = res.headers['www-authenticate'];
      await readAll(res);
      if (!(await this.authenticate(typeof challenge === 'string' ? challenge : undefined))) {
        throw this.failure(
          method,
          target,
          401,
          'UNAUTHORIZED',
          this.refused
            ? `the credentials for ${this.registry} in ${this.credentialSource()} were refused`
            : `authentication required and no credentials for ${this.registry} in ${this.credentialSource()}`,
        );
      }
      res = await this.raw(method, this.url(target), opts, true);
      if (res.statusCode === 401) this.refused = true; // answered with what we had and refused again: wrong, not missing
    }
    if ((res.statusCode === 307 || res.statusCode === 302 || res.statusCode === 303) && res.headers.location) {
      await readAll(res);
      const to = new URL(res.headers.location, this.url(target));
      res = await this.raw(method, to, opts, to.origin === new URL(this.base).origin);
    }
    return res;
  }

  /** A RegistryError for an answer that was not the expected one. */
  unexpected(method: string, target: string, answer: Answer, what: string): RegistryError {
    if (answer.status === 400 && answer.body.toString('utf8').includes('HTTP request to an HTTPS server')) {
      return new RegistryError(
        this.registry,
        400,
        'HTTPS',
        `registry ${this.registry} speaks HTTPS (it answered 400 to plain HTTP ${method} ${new URL(target, this.base).pathname}), and no CA certificate for it was given`,
        'give the CA that signed its certificate: --ca FILE or BENCHGRAPH_REGISTRY_CA=FILE (or /etc/docker/certs.d/HOST/ca.crt)',
      );
    }
    const e = registryErrorCode(answer.body.toString('utf8'));
    return this.failure(method, target, answer.status, e?.code ?? null, e ? `${what}: ${e.message || e.code}` : what);
  }

  private failure(method: string, target: string, status: number, code: string | null, what: string): RegistryError {
    const shown = new URL(target, this.base).pathname;
    return new RegistryError(
      this.registry,
      status,
      code,
      `registry ${this.registry} answered ${status}${code ? ' ' + code : ''} to ${method} ${shown}: ${what}`,
      remedyFor(status, this.registry, { source: this.credentialSource(), refused: this.refused }),
    );
  }

  /** Where the credentials come from: the Docker client configuration this command reads, or the caller. */
  private credentialSource(): string {
    return this.options.credentials !== undefined ? 'the credentials given to the command' : dockerConfigFile();
  }

  private url(target: string): URL {
    return new URL(target, this.base);
  }

  private async raw(method: string, url: URL, opts: SendOptions, withAuth: boolean): Promise<IncomingMessage> {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (withAuth && this.authorization) headers['authorization'] = this.authorization;
    if (opts.body) headers['content-length'] = String(opts.body.length);
    else if (method === 'PUT' || method === 'POST' || method === 'PATCH') headers['content-length'] = '0';
    // node:https (and TLS) loads only for a registry spoken to over HTTPS: a loopback pull starts faster.
    const lib = url.protocol === 'https:' ? (await import('node:https')).default : http;
    const sameOrigin = url.origin === new URL(this.base).origin;
    if (sameOrigin && !this.agent)
      this.agent = this.secure
        ? new (await import('node:https')).Agent({ keepAlive: true, ca: this.ca, maxSockets: 4 })
        : new http.Agent({ keepAlive: true, maxSockets: 4 });
    return new Promise((resolve, reject) => {
      const req = lib.request(url, { method, headers, agent: sameOrigin ? this.agent! : undefined, ca: this.ca }, resolve);
      req.on('error', (e: NodeJS.ErrnoException) => reject(this.unreachable(method, url, e)));
      req.end(opts.body);
    });
  }

  private unreachable(method: string, url: URL, e: NodeJS.ErrnoException): RegistryError {
    const code = e.code ?? e.message;
    const tls = TLS_CODES.has(e.code ?? '') || /certificate|ssl|tls/i.test(e.message);
    return new RegistryError(
      this.registry,
      null,
      code,
      `registry ${this.registry} could not be reached for ${method} ${url.pathname}: ${code}${tls ? ` (${e.message})` : ''}`,
      tls
        ? 'give the CA that signed its certificate: --ca FILE or BENCHGRAPH_REGISTRY_CA=FILE (or /etc/docker/certs.d/HOST/ca.crt)'
        : 'check the address and that the registry is running',
    );
  }

  private creds(): Credentials | null {
    if (this.credentials === undefined) this.credentials = credentialsFor(this.registry);
    return this.credentials;
  }

  /** Answers a challenge; false when there is nothing to answer it with. */
  private async authenticate(header: string | undefined): Promise<boolean> {
    const challenge = parseChallenge(header);
    const creds = this.creds();
    const basic = creds ? 'Basic ' + Buffer.from(`${creds.username}:${creds.password}`).toString('base64') : null;
    if (!challenge || challenge.scheme === 'basic') {
      if (basic && this.authorization === basic) this.refused = true; // sent once and answered 401 again: wrong, not missing
      if (!basic || this.authorization === basic) return false;
      this.authorization = basic;
      return true;
    }
    if (challenge.scheme !== 'bearer' || !challenge.params['realm']) return false;
    const realm = new URL(challenge.params['realm']);
    if (challenge.params['service']) realm.searchParams.set('service', challenge.params['service']);
    // Our own scope, not the challenge's: one token serves every request of the command.
    realm.searchParams.set('scope', `repository:${this.repository}:${this.options.actions}`);
    const res = await this.raw('GET', realm, { headers: basic ? { authorization: basic } : {} }, false);
    const body = await readAll(res);
    if (res.statusCode !== 200) {
      throw new RegistryError(
        this.registry,
        res.statusCode ?? null,
        'TOKEN',
        `token service ${realm.origin} answered ${res.statusCode} for ${this.registry}`,
        remedyFor(res.statusCode === 200 ? 500 : res.statusCode === 401 || res.statusCode === 403 ? 401 : (res.statusCode ?? 500), this.registry, {
          source: this.credentialSource(),
          refused: basic !== null,
        }),
      );
    }
    const json = JSON.parse(body.toString('utf8')) as { token?: string; access_token?: string };
    const token = json.token ?? json.access_token;
    if (!token) return false;
    this.authorization = `Bearer ${token}`;
    return true;
  }
}

export function readAll(res: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => resolve(Buffer.concat(chunks)));
    res.on('error', reject);
  });
}

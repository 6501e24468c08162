// Signing of pushed runs (optional, off by default): push signs the digest of
// the run config (which names every stage manifest, which names every file)
// with the ed25519 key pipeline.yaml names under store.signing.key; the
// signature and the signer's id (sha256 of its public key) go in two manifest
// annotations. With signing on, pull refuses a run that is unsigned, signed
// by a key not trusted, or whose signature does not verify.
import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { UserError } from '../errors.js';
import type { StoreSection } from '../config/pipeline-config.js';
import { ANNOTATIONS, type OciManifest } from './run-artifact.js';

export function signerId(key: KeyObject): string {
  return (
    'sha256:' +
    createHash('sha256')
      .update(key.export({ type: 'spki', format: 'der' }))
      .digest('hex')
  );
}

function readKey(file: string, kind: 'private' | 'public', key: string): KeyObject {
  let pem: Buffer;
  try {
    pem = readFileSync(file);
  } catch (e) {
    throw new UserError(
      `cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
      { key },
      `name a PEM file of an ed25519 ${kind} key`,
    );
  }
  try {
    const k = kind === 'private' ? createPrivateKey(pem) : createPublicKey(pem);
    if (k.asymmetricKeyType !== 'ed25519') throw new Error(`a ${k.asymmetricKeyType} key`);
    return k;
  } catch (e) {
    throw new UserError(
      `${file} is not an ed25519 ${kind} key (${(e as Error).message})`,
      { key },
      'make one: openssl genpkey -algorithm ed25519 -out key.pem; openssl pkey -in key.pem -pubout -out key.pub.pem',
    );
  }
}

const resolveIn = (dir: string, f: string): string => (isAbsolute(f) ? f : join(dir, f));

/** The annotations push adds, or none with signing off (or no key to sign with). */
export function signer(section: StoreSection | undefined, pipelineDir: string): ((configDigest: string) => Record<string, string>) | undefined {
  const file = section?.signing?.key;
  if (!file) return undefined;
  const key = readKey(resolveIn(pipelineDir, file), 'private', 'store.signing.key');
  const id = signerId(createPublicKey(key));
  return (configDigest) => ({ [ANNOTATIONS.signer]: id, [ANNOTATIONS.signature]: sign(null, Buffer.from(configDigest), key).toString('base64') });
}

/** With signing on: null when the run is signed by a trusted key, else what is wrong. With signing off: null. */
export function signatureProblem(section: StoreSection | undefined, pipelineDir: string, manifest: OciManifest): string | null {
  const signing = section?.signing;
  if (!signing) return null;
  const trusted = signing.trusted.map((f) => readKey(resolveIn(pipelineDir, f), 'public', 'store.signing.trusted'));
  if (signing.key) trusted.push(createPublicKey(readKey(resolveIn(pipelineDir, signing.key), 'private', 'store.signing.key')));
  const id = manifest.annotations?.[ANNOTATIONS.signer];
  const signature = manifest.annotations?.[ANNOTATIONS.signature];
  if (!id || !signature) return 'the run is unsigned, and store.signing is on';
  const key = trusted.find((k) => signerId(k) === id);
  if (!key) return `the run is signed by ${id.slice(0, 19)}, a key not in store.signing.trusted`;
  if (!verify(null, Buffer.from(manifest.config.digest), key, Buffer.from(signature, 'base64')))
    return `the signature of ${id.slice(0, 19)} does not verify for this run`;
  return null;
}

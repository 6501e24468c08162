// verify: after sampling, re-hashes every pinned artifact as stored in the pin
// outputs and in each prepared service folder (registry blobs, erofs images,
// image tars, OCI blobs) and every pinned binary, compares them with the pins,
// and checks that every formal sample passed its output check. Writes
// verify.json; a mismatch fails the stage naming the artifact.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StageContext, StageDefinition } from '../harness/contract/stage.js';
import { imageKeyConfig } from '../harness/artifacts/image-key.js';
import type { ServiceSection } from '../harness/config/pipeline-config.js';
import { CheckFailed } from '../harness/errors.js';
import { sha256File } from '../harness/digest/sha256.js';
import { resolvePinnedPath } from '../harness/artifacts/binary-pins.js';
import { Database } from '../harness/db/duckdb.js';
import { serviceKind } from '../harness/services/service-kinds.js';
import { readExchange, missingInput, findInputFile, type VerifyResult } from '../harness/contract/exchange-files.js';

interface ArtifactCheck {
  name: string;
  expectedSha256: string;
  actualSha256: string;
  ok: boolean;
}

async function check(name: string, file: string, expected: string): Promise<ArtifactCheck> {
  const actual = existsSync(file) ? await sha256File(file) : 'missing';
  return { name, expectedSha256: expected, actualSha256: actual, ok: actual === expected };
}

const verify: StageDefinition = {
  kind: 'verify',
  description: 'Re-hashes every pinned artifact where it is stored and served, and checks every formal sample passed.',
  reads: ['artifacts', 'services'],
  keyConfig: imageKeyConfig,
  async run(ctx) {
    const pinned = readExchange(ctx.inputs, 'pins.json');
    if (!pinned) throw missingInput(ctx, 'pins.json', 'pin', 'add pin (through sample) to needs');
    const { value: pins, dir: pinDir } = pinned;
    const prepDir = findInputFile(ctx.inputs, 'images.json')?.dir ?? null;
    const checks: ArtifactCheck[] = [];
    for (const [id, img] of Object.entries(pins.images)) {
      const hex = (d: string) => d.replace(/^sha256:/, '');
      checks.push(await check(`${id}: image tar`, join(pinDir, img.tarFile), img.tarSha256));
      checks.push(await check(`${id}: erofs image`, join(pinDir, img.erofsFile), img.erofsSha256));
      const blobs = [img.manifestDigest, img.configDigest, ...img.layers.map((l) => l.digest)];
      for (const d of blobs) checks.push(await check(`${id}: OCI blob ${d}`, join(pinDir, img.ociDir, 'blobs', 'sha256', hex(d)), hex(d)));
      if (!prepDir) continue;
      for (const [serviceId, section] of Object.entries(ctx.config.services) as [string, ServiceSection][]) {
        const storage = join(prepDir, 'services', serviceId);
        if (!existsSync(storage)) continue;
        for (const a of serviceKind(serviceId, section).storedArtifacts?.(storage, id, img) ?? []) {
          checks.push(await check(`${serviceId} ${a.name}`, a.file, a.sha256));
        }
      }
    }
    for (const b of pins.binaries) checks.push(await check(`binary ${b.name} (${b.path})`, resolvePinnedPath(b.path), b.sha256));

    const samplesDir = findInputFile(ctx.inputs, 'samples.duckdb')?.dir ?? null;
    let samples = { formal: 0, failed: 0 };
    const failures: string[] = [];
    if (samplesDir) {
      const db = await Database.open(join(samplesDir, 'samples.duckdb'), { readOnly: true });
      try {
        const row = await db.one(
          `SELECT count(*) FILTER (WHERE phase = 'formal') AS formal, count(*) FILTER (WHERE phase = 'formal' AND NOT ok) AS failed FROM samples`,
        );
        samples = { formal: Number(row?.['formal'] ?? 0), failed: Number(row?.['failed'] ?? 0) };
        for (const r of await db.all(
          `SELECT launch_id, cohort, path, state, failure_reason FROM samples WHERE phase = 'formal' AND NOT ok ORDER BY launch_id LIMIT 20`,
        )) {
          failures.push(
            `formal sample ${String(r['launch_id'])} (${String(r['cohort'])}/${String(r['path'])}/${String(r['state'])}) failed: ${String(r['failure_reason'] ?? 'output check')}`,
          );
        }
      } finally {
        db.close();
      }
    } else {
      ctx.log('verify: no samples.duckdb among the inputs; only artifacts are checked');
    }
    const badArtifacts = checks.filter((c) => !c.ok);
    const allowFailed = ctx.params['allow_failed_samples'] === true;
    const ok = badArtifacts.length === 0 && (allowFailed || samples.failed === 0);
    writeFileSync(join(ctx.outputDir, 'verify.json'), JSON.stringify({ ok, artifacts: checks, samples } satisfies VerifyResult, null, 2) + '\n');
    ctx.log(
      `verify: ${checks.length - badArtifacts.length}/${checks.length} artifacts match their pins; ${samples.formal} formal samples, ${samples.failed} failed`,
    );
    if (badArtifacts.length) {
      throw new CheckFailed(
        `artifact${badArtifacts.length > 1 ? 's' : ''} differ from the pins: ${badArtifacts.map((c) => c.name).join('; ')}`,
        badArtifacts.map((c) => `${c.name}: pinned ${c.expectedSha256}, found ${c.actualSha256}`),
      );
    }
    if (!allowFailed && samples.failed > 0) throw new CheckFailed(`${samples.failed} formal sample(s) failed their output check`, failures);
  },
};

export default verify;

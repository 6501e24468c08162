// Effects: `pipeline audit --remote REF@RUN`: re-hashes every blob of a remote
// run as it streams, keeping no copy, and checks the run as pull would.
import { CheckFailed } from '../errors.js';
import { BlobMismatch, fetchBlob } from './blob-fetch.js';
import type { OciClient } from './oci-client.js';
import { openRun, readRunManifests } from './pull-run.js';
import type { RemoteRun } from './run-index.js';
import { TITLE } from './run-artifact.js';

export interface RemoteAuditFinding {
  stage: string;
  file: string;
  problem: 'changed' | 'refused';
}

export interface RemoteAuditResult {
  runId: string;
  checkedFiles: number;
  findings: RemoteAuditFinding[];
}

export async function auditRemoteRun(client: OciClient, remote: RemoteRun): Promise<RemoteAuditResult> {
  const runId = remote.runDigest.slice(0, 12);
  const findings: RemoteAuditFinding[] = [];
  let checkedFiles = 0;
  try {
    const run = await openRun(client, remote);
    await readRunManifests(client, run);
    for (const l of run.manifest.layers) {
      const title = l.annotations?.[TITLE] ?? l.digest;
      checkedFiles++;
      try {
        await fetchBlob(client, l.digest, title, null);
      } catch (e) {
        if (!(e instanceof BlobMismatch)) throw e;
        findings.push({ stage: title.split('/')[0]!, file: `${title} ${l.digest}`, problem: 'changed' });
      }
    }
  } catch (e) {
    if (e instanceof BlobMismatch) findings.push({ stage: e.title.split('/')[0]!, file: `${e.title} ${e.digest}`, problem: 'changed' });
    else if (e instanceof CheckFailed) for (const d of [e.message, ...e.details]) findings.push({ stage: 'run', file: d, problem: 'refused' });
    else throw e;
  }
  return { runId, checkedFiles, findings };
}

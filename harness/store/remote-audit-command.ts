// `pipeline audit --remote REF@RUN`, printed as `pipeline audit` prints: one
// line per problem, then the count; exit 1 on any problem.
import { CheckFailed } from '../errors.js';
import { auditRemoteRun } from './remote-audit.js';
import { remoteRunOf } from './remote-run.js';

export async function auditRemote(flags: Record<string, unknown>): Promise<number> {
  const caFile = typeof flags['ca'] === 'string' ? flags['ca'] : null;
  const { client, run } = await remoteRunOf(String(flags['remote']), '--remote', caFile);
  try {
    const result = await auditRemoteRun(client, run);
    if (flags['json']) process.stdout.write(JSON.stringify(result) + '\n');
    else {
      for (const f of result.findings) process.stdout.write(`${f.problem.toUpperCase()}  ${f.file}  (stage ${f.stage})\n`);
      process.stdout.write(`run ${result.runId}: ${result.checkedFiles} blobs checked, ${result.findings.length} problems\n`);
    }
    if (result.findings.length) throw new CheckFailed(`audit of run ${result.runId} found ${result.findings.length} problem(s)`);
    return 0;
  } finally {
    client.close();
  }
}

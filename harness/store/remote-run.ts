// Effects: from a reference as the CLI takes it to an opened remote run: the
// client for its repository (CA, credentials) and, for REF@RUN, the run.
import { parseRegistryRef, type RegistryRef } from './registry-ref.js';
import { OciClient, type ClientOptions } from './oci-client.js';
import { resolveRun, type RemoteRun } from './run-index.js';
import { UserError } from '../errors.js';

export function clientFor(ref: RegistryRef, caFile: string | null, actions: ClientOptions['actions']): OciClient {
  return new OciClient(ref.registry, ref.repository, { caFile, actions });
}

/** The client and run of `REF@RUN`; a UserError when the run is not named. */
export async function remoteRunOf(text: string, key: string, caFile: string | null): Promise<{ ref: RegistryRef; client: OciClient; run: RemoteRun }> {
  const ref = parseRegistryRef(text, key);
  if (!ref.run) throw new UserError(`'${text}' names no run`, { key }, 'write REF@RUN; `pipeline history REF` lists the runs');
  const client = clientFor(ref, caFile, 'pull');
  return { ref, client, run: await resolveRun(client, ref.run, key) };
}

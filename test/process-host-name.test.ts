// The host a launch is journaled with: the executor's node name first (any
// executor can set BENCHGRAPH_HOST; a Kubernetes pod from spec.nodeName), then
// Slurm's, then the machine's host name. Our own logic, with made-up names.
import test from 'ava';
import { hostname } from 'node:os';
import { hostName } from '../harness/process/host-name.js';

test('BENCHGRAPH_HOST, then SLURMD_NODENAME, then the host name', (t) => {
  t.is(hostName({ BENCHGRAPH_HOST: 'node-7', SLURMD_NODENAME: 'n1' }), 'node-7');
  t.is(hostName({ SLURMD_NODENAME: 'n1' }), 'n1');
  t.is(hostName({ BENCHGRAPH_HOST: '' }), hostname());
  t.is(hostName({}), hostname());
});

// The service-death policy's own logic (pure functions, no services).
import test from 'ava';
import { deathsAffecting, servicesUsedBy, stopAfterRound, withServiceDeaths } from '../harness/launch-arms/service-fault-policy.js';
import type { PathSection } from '../harness/config/pipeline-config.js';
import type { SampleRow } from '../harness/db/sample-row.js';

const dockerPath: PathSection = {
  launch: ['{services.engine.docker}', '-H', 'unix://{services.engine.socket}', 'run', '{services.registry.address}/x', '{command}'],
  env: {},
  hooks: { before_session: [], after_session: [], before_cold: [['rm-image.sh', '{services.engine.socket}']], after_cold: [], after_pair: [] },
  services: ['registry'],
} as unknown as PathSection;

const death = { id: 'registry', kind: 'docker-registry', pid: 4242, how: 'SIGKILL' };

test('a path uses the services it lists and the ones its templates refer to', (t) => {
  t.deepEqual(servicesUsedBy(dockerPath), ['engine', 'registry']);
});

test('a launch that succeeded while a service it uses was dead is recorded as a failure naming the service', (t) => {
  const row = { ok: true, failure_reason: null, ready_ms: 12 } as unknown as SampleRow;
  const out = withServiceDeaths(row, deathsAffecting(servicesUsedBy(dockerPath), [death]));
  t.false(out['ok']);
  t.is(out['failure_reason'], 'service registry (docker-registry, pid 4242) died: SIGKILL');
  t.is(out['ready_ms'], 12, 'the measurement stays in the record');
});

test('a launch failing for its own reason under a dead service keeps its own reason after the service', (t) => {
  const row = { ok: false, failure_reason: 'exit code 1' } as unknown as SampleRow;
  t.regex(String(withServiceDeaths(row, [death])['failure_reason']), /^service registry .*; exit code 1$/);
});

test('a path that does not use the dead service is not affected', (t) => {
  const lazy = {
    ...dockerPath,
    launch: ['lazy.sh', '{services.cache.url}'],
    hooks: { before_session: [], after_session: [], before_cold: [], after_cold: [], after_pair: [] },
    services: ['cache'],
  } as PathSection;
  t.deepEqual(deathsAffecting(servicesUsedBy(lazy), [death]), []);
});

test('the session stops after a round only when a service died, naming it and the round', (t) => {
  t.is(stopAfterRound([], 'shell', 'formal', 2), null);
  t.regex(
    stopAfterRound([death], 'shell', 'formal', 2)!.message,
    /^service registry \(docker-registry, pid 4242\) died: SIGKILL during formal round 2 of cohort shell/,
  );
});

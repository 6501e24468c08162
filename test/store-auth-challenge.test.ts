// Pure parsing of the WWW-Authenticate challenges a registry answers a 401 with.
import test from 'ava';
import { parseChallenge } from '../harness/store/auth-challenge.js';

test('a Bearer challenge gives its realm, service and scope', (t) => {
  t.deepEqual(parseChallenge('Bearer realm="https://auth.example/token",service="registry.example",scope="repository:team/x:pull,push"'), {
    scheme: 'bearer',
    params: { realm: 'https://auth.example/token', service: 'registry.example', scope: 'repository:team/x:pull,push' },
  });
});

test('a Basic challenge is recognised whatever the case of its scheme', (t) => {
  t.is(parseChallenge('basic realm="Registry Realm"')?.scheme, 'basic');
});

test('no header is no challenge', (t) => {
  t.is(parseChallenge(undefined), null);
});

// Pure parts of images the user brings and of the command service's
// loopback rule: what enters the key, skopeo references, platform choice in
// an index, the layers refused, and /proc/net/tcp parsing.
import test from 'ava';
import { imageSources, sourceKeyOf, skopeoReference, withoutTag, hostPlatform } from '../harness/artifacts/image-source.js';
import { selectPlatform, unsupportedLayer } from '../harness/artifacts/oci-manifest.js';
import { isLoopbackAddress, parseProcNetTcp } from '../harness/services/listening-sockets.js';
import { expandServiceArgv } from '../harness/services/command-service.js';
import { UserError } from '../harness/errors.js';

const digest = `sha256:${'ab'.repeat(32)}`;

test('an archive pinned by digest is keyed by its digest, not by its path', (t) => {
  const key = (file: string) => {
    const [src] = imageSources({ images: { mine: { kind: 'oci-archive', file, digest } } }, '/exp');
    return sourceKeyOf(src!, () => t.fail('no content hash is needed with a digest') as never);
  };
  t.deepEqual(key('./a.tar'), key('/elsewhere/b.tar'));
  t.deepEqual(key('./a.tar'), {
    kind: 'oci-archive',
    digest,
    platform: `${hostPlatform().os}/${hostPlatform().architecture}${hostPlatform().variant ? `/${hostPlatform().variant}` : ''}`,
    repository: 'benchgraph/mine',
  });
});

test('an archive without a digest is keyed by the content hash of the file', (t) => {
  const [src] = imageSources({ images: { mine: { kind: 'docker-archive', file: 'x.tar' } } }, '/exp');
  t.is(src!.location, '/exp/x.tar');
  t.like(
    sourceKeyOf(src!, () => 'c0ffee'),
    { kind: 'docker-archive', content: 'c0ffee' },
  );
});

test('a registry image is keyed by the digest of its reference, not by the registry host', (t) => {
  const key = (reference: string) => sourceKeyOf(imageSources({ images: { r: { kind: 'registry', reference } } }, '/')[0]!, () => 'unused');
  t.deepEqual(key(`127.0.0.1:5000/team/app:1@${digest}`), key(`registry.example/team/app@${digest}`));
});

test('skopeo reads a registry reference with a tag and a digest by its digest alone', (t) => {
  t.is(withoutTag(`127.0.0.1:5000/team/app:1.2@${digest}`), `127.0.0.1:5000/team/app@${digest}`);
  t.is(withoutTag(`127.0.0.1:5000/team/app@${digest}`), `127.0.0.1:5000/team/app@${digest}`);
  const [src] = imageSources({ images: { l: { kind: 'oci-layout', path: 'lay', tag: 'v1' } } }, '/exp');
  t.is(skopeoReference(src!), 'oci:/exp/lay:v1');
});

test('an index resolves to the platform entry, or lists the platforms it has', (t) => {
  const index = {
    manifests: [
      { digest: 'sha256:arm', size: 1, platform: { os: 'linux', architecture: 'arm64', variant: 'v8' } },
      { digest: 'sha256:amd', size: 1, platform: { os: 'linux', architecture: 'amd64' } },
    ],
  };
  t.deepEqual(selectPlatform(index, { os: 'linux', architecture: 'amd64' }), { found: index.manifests[1]! });
  t.deepEqual(selectPlatform(index, { os: 'linux', architecture: 'arm64', variant: 'v8' }), { found: index.manifests[0]! });
  t.deepEqual(selectPlatform(index, { os: 'linux', architecture: 's390x' }), { available: ['linux/arm64/v8', 'linux/amd64'] });
});

test('zstd layers are the ones refused; gzip and plain tar layers are not', (t) => {
  const layer = (mediaType: string) => ({ mediaType, digest: 'sha256:x', size: 1 });
  t.is(unsupportedLayer({ layers: [layer('application/vnd.oci.image.layer.v1.tar+gzip'), layer('application/vnd.oci.image.layer.v1.tar')] }), null);
  t.is(unsupportedLayer({ layers: [layer('application/vnd.oci.image.layer.v1.tar+zstd')] })?.mediaType, 'application/vnd.oci.image.layer.v1.tar+zstd');
});

test('/proc/net/tcp and tcp6 LISTEN lines give their addresses, and only loopback ones pass', (t) => {
  const v4 = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 111 1 0 100 0 0 10 0
   1: 00000000:0050 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 222 1 0 100 0 0 10 0
   2: 0100007F:1F90 0100007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 333 1 0 100 0 0 10 0
`;
  t.deepEqual(parseProcNetTcp(v4, false), [
    { address: '127.0.0.1', port: 8080, inode: '111' },
    { address: '0.0.0.0', port: 80, inode: '222' },
  ]);
  const v6 = `  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000001000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 444 1 0 100 0 0 10 0
   1: 00000000000000000000000000000000:1F91 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 555 1 0 100 0 0 10 0
`;
  t.deepEqual(
    parseProcNetTcp(v6, true).map((s) => s.address),
    ['::1', '::'],
  );
  t.deepEqual(['127.0.0.1', '127.3.4.5', '::1', '0.0.0.0', '::', '192.168.1.2'].map(isLoopbackAddress), [true, true, true, false, false, false]);
});

test("a command service's templates know {port}, {dir}, {socket}, {run}; another placeholder is a user error naming the key", (t) => {
  t.deepEqual(expandServiceArgv(['d', '--listen=127.0.0.1:{port}', '{dir}/x'], { port: '9', dir: '/d' }, 'k'), ['d', '--listen=127.0.0.1:9', '/d/x']);
  const e = t.throws(() => expandServiceArgv(['{prot}'], { port: '9' }, 'services.s.with.command'), { instanceOf: UserError });
  t.regex(e!.format(), /^services\.s\.with\.command: unknown placeholder \{prot\} \(a command service's templates know: \{port\}\)$/);
});

// Benchmark (not a test): how together the launch helper releases a burst
// (issue 46). For N in LEVELS, BURSTS bursts of N `true` launches: the spawn
// offset of the last launch from the release (how long spawning N takes, the
// part of every burst's figures that is the helper's own), and each launch's
// Completion from the release, as medians over the bursts.
// Run: npx tsc -p . && node dist/bench/burst-release.js [BURSTS] [LEVELS, e.g. 1,2,4,8,16,32]
import { Launcher } from '../harness/launch/launcher.js';
import { median } from '../harness/stats/quantile.js';

const bursts = Number(process.argv[2] ?? 20);
const levels = (process.argv[3] ?? '1,2,4,8,16,32').split(',').map(Number);
const launcher = await Launcher.start();
try {
  for (const n of levels) {
    const lastSpawn: number[] = [];
    const lastDone: number[] = [];
    const perLaunch: number[] = [];
    for (let b = 0; b < bursts; b++) {
      const rs = await launcher.burst(
        Array.from({ length: n }, (_, i) => ({
          launchId: `b${b}.${i}`,
          argv: ['true'],
          env: { PATH: '/usr/bin:/bin' },
          cwd: '/',
          marker: '',
          ready: 'none' as const,
          timeoutMs: 60_000,
          tailBytes: 0,
        })),
      );
      lastSpawn.push(Math.max(...rs.map((r) => r.spawnOffsetMs ?? NaN)));
      lastDone.push(Math.max(...rs.map((r) => r.completionMs ?? NaN)));
      perLaunch.push(...rs.map((r) => r.completionMs ?? NaN));
    }
    console.log(
      `N=${String(n).padStart(3)}: last spawn median ${median(lastSpawn).toFixed(3)} ms after the release; all done median ${median(lastDone).toFixed(3)} ms; per-launch Completion median ${median(perLaunch).toFixed(3)} ms (${bursts} bursts)`,
    );
  }
} finally {
  await launcher.close();
}

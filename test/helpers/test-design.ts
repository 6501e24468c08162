// The design section of the made-up pipeline configs the report tests build
// (our own logic): every key the validator would fill in, settle and disk probe off.
import type { DesignSection } from '../../harness/config/pipeline-config.js';

export function testDesign(rounds: number, seed: string): DesignSection {
  return {
    preflight: 1,
    warmup_rounds: 3,
    sessions: 1,
    rounds,
    seed,
    states: ['cold', 'warm'],
    timeout_s: 60,
    tail_bytes: 4096,
    order: 'balanced',
    settle: { enabled: false, dirty_kb: 8192, timeout_s: 30, poll_ms: 50 },
    disk_probe_mb: 0,
  };
}

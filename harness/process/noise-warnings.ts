// Host settings known to add noise to start-up timings, each with its remedy,
// from a host fingerprint (host-fingerprint.ts). `pipeline doctor` prints them
// as warnings; they never fail a check. Pure.
import type { HostFingerprint } from './host-fingerprint.js';

export interface NoiseWarning {
  setting: string;
  detail: string;
  remedy: string;
}

export function noiseWarnings(f: HostFingerprint): NoiseWarning[] {
  const out: NoiseWarning[] = [];
  if (f.governor !== 'unavailable' && f.governor !== 'performance') {
    out.push({
      setting: 'cpu governor',
      detail: `${f.governor}: the clock follows the load, so a launch after an idle pause starts slower`,
      remedy: 'cpupower frequency-set -g performance (or write performance to /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor)',
    });
  }
  if (f.boost === 'on') {
    out.push({
      setting: 'boost/turbo',
      detail: 'on: the clock depends on temperature and on how many cores are busy',
      remedy: 'echo 0 > /sys/devices/system/cpu/cpufreq/boost (intel_pstate: echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo)',
    });
  }
  if (f.smt === 'on') {
    out.push({
      setting: 'SMT',
      detail: 'on: hyperthread siblings share a core, so other work on the sibling slows a launch',
      remedy: 'echo off > /sys/devices/system/cpu/smt/control (or boot with nosmt)',
    });
  }
  if (f.isolcpus === '' && f.cpuCount > 1) {
    out.push({
      setting: 'isolcpus',
      detail: 'absent from the kernel command line: launches share every CPU with the rest of the system',
      remedy: 'boot with isolcpus=N-M nohz_full=N-M and run the experiment on those CPUs (taskset -c N-M pipeline run)',
    });
  }
  if (f.virtualization !== 'none' && f.virtualization !== 'unknown') {
    out.push({
      setting: 'virtualization',
      detail: `${f.virtualization}: a hypervisor or neighbours can take CPU time (steal) and disk bandwidth`,
      remedy: 'prefer a dedicated or bare-metal host; the session table reports steal per session',
    });
  }
  if (f.steal === 'present') {
    out.push({ setting: 'steal', detail: 'the hypervisor took CPU time during a session', remedy: 'a host without CPU overcommit, or fewer neighbours' });
  }
  return out;
}

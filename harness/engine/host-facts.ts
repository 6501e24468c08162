import { cpus, release, totalmem, platform, arch } from 'node:os';

export interface HostFacts {
  kernel: string;
  platform: string;
  arch: string;
  cpuModel: string;
  cores: number;
  memoryBytes: number;
  node: string;
}

export function hostFacts(): HostFacts {
  const c = cpus();
  return {
    kernel: release(),
    platform: platform(),
    arch: arch(),
    cpuModel: c[0]?.model ?? 'unknown',
    cores: c.length,
    memoryBytes: totalmem(),
    node: process.version,
  };
}

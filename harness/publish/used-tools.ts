// Which pinned tools an experiment used, so that a report lists only those:
// the binaries its paths, hooks, cohorts and services name (directly, or in
// a harness script they run, and in the scripts that one sources), the
// daemons of its service kinds, what the pin stage ran for its image kinds,
// and the binaries its declared requirements name. Reads the scripts (an
// effect at the edge); usedToolsIn is the pure part.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { BINARIES } from '../artifacts/binary-pins.js';
import type { Requirement } from '../contract/requirement.js';

/** The daemons each service kind starts. */
const SERVICE_TOOLS: Record<string, readonly string[]> = {
  'docker-registry': ['docker-registry'],
  'nginx-files': ['nginx'],
  'docker-engine': ['dockerd', 'containerd', 'runc', 'docker'],
  // a registry whose prepare converts its images to eStargz (with.estargz): ctr-remote in a private containerd
  'docker-registry+estargz': ['containerd', 'ctr', 'ctr-remote', 'runc'],
};

/** What the pin stage runs for an image of each kind (every image gets an erofs file). */
const IMAGE_TOOLS: Record<string, readonly string[]> = {
  mmdebstrap: ['mmdebstrap', 'mkfs.erofs'],
  'busybox-static': ['busybox', 'mkfs.erofs'],
  'oci-archive': ['skopeo', 'umoci', 'mkfs.erofs'],
  'docker-archive': ['skopeo', 'umoci', 'mkfs.erofs'],
  'oci-layout': ['skopeo', 'umoci', 'mkfs.erofs'],
  registry: ['skopeo', 'umoci', 'mkfs.erofs'],
};

export interface ToolSources {
  /** Every argv string of the paths, hooks, cohorts and command services. */
  strings: readonly string[];
  /** The text of each harness script those strings run (and the scripts it sources). */
  scripts: readonly string[];
  serviceKinds: readonly string[];
  imageKinds: readonly string[];
  requirements: readonly Requirement[];
}

// A name followed by a dot is a file named after the tool (rclone.pid, estargz-mount.pid), not the tool run.
const word = (name: string): RegExp => new RegExp(`(^|[^A-Za-z0-9_.$/-])${name.replace(/[.]/g, '\\.')}($|[^A-Za-z0-9_.:-])`, 'm');

/** Pure: the names of BINARIES the sources use, in BINARIES order. */
export function usedToolsIn(s: ToolSources): string[] {
  const used = new Set<string>();
  for (const k of s.serviceKinds) for (const t of SERVICE_TOOLS[k] ?? []) used.add(t);
  for (const k of s.imageKinds) for (const t of IMAGE_TOOLS[k] ?? ['mkfs.erofs']) used.add(t);
  for (const r of s.requirements) for (const b of BINARIES) if (r.id === b.name || r.id === `binary-${b.name}`) used.add(b.name);
  const text = [...s.strings, ...s.scripts].join('\n');
  for (const b of BINARIES) if (word(b.name).test(text)) used.add(b.name);
  return BINARIES.map((b) => b.name).filter((n) => used.has(n));
}

function strings(value: unknown, out: string[]): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  // A description is prose, not something run.
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) if (k !== 'description') strings(v, out);
  return out;
}

/** A script without its comments: only what it runs. */
const code = (text: string): string =>
  text
    .split('\n')
    .filter((l) => !/^\s*#/.test(l))
    .map((l) => l.replace(/\s#.*$/, ''))
    .join('\n');

/**
 * The harness scripts a string runs ({harness}/x/y.sh), and the scripts those
 * run or source beside them, as code without comments. A script that sets
 * BENCHGRAPH_RUN_SCRIPT for the one it runs replaces that one's default
 * runner (gvisor-full-launch.sh runs oci-full-launch.sh with gvisor-run.sh).
 */
function scriptTexts(list: readonly string[], harnessDir: string): string[] {
  const seen = new Map<string, string>();
  const visit = (file: string, runner: string | null): void => {
    const key = `${file}\0${runner ?? ''}`;
    if (seen.has(key) || !existsSync(file)) return;
    let text = code(readFileSync(file, 'utf8'));
    text = text.replace(/\$\{BENCHGRAPH_RUN_SCRIPT:-([\w.-]+)\}/g, (_, d: string) => ` ${runner ?? d}`);
    seen.set(key, text);
    const override = /BENCHGRAPH_RUN_SCRIPT=([\w.-]+\.sh)/.exec(text)?.[1] ?? runner;
    for (const m of text.matchAll(/(?<![\w.-])([A-Za-z0-9_][\w-]*\.sh)\b/g)) visit(join(dirname(file), m[1]!), override);
  };
  for (const s of list) for (const m of s.matchAll(/\{harness\}\/([\w./-]+\.sh)/g)) visit(join(harnessDir, m[1]!), null);
  return [...new Set(seen.values())];
}

/** Kernel features the scripts use, by what their code names. */
export function kernelFeaturesIn(scripts: readonly string[]): string[] {
  const text = scripts.join('\n');
  const out: string[] = [];
  if (/\berofs\b/.test(text)) out.push('erofs');
  if (/\boverlay\b/.test(text)) out.push('overlay');
  if (/\b(rclone mount|fusermount3?|\/dev\/fuse)\b/.test(text) || /\brclone\b/.test(text)) out.push('fuse');
  if (/\b(losetup|loop)\b/.test(text)) out.push('loop');
  return out;
}

export interface ToolConfig {
  cohorts?: Record<string, unknown>;
  paths?: Record<string, unknown>;
  services?: Record<string, unknown>;
  artifacts?: Record<string, unknown>;
}

export interface UsedParts {
  /** Names of BINARIES the experiment used. */
  tools: string[];
  /** Kernel features its scripts use: erofs, overlay, fuse, loop. */
  kernel: string[];
}

/** The tools and kernel features a pipeline's config and requirements use; harnessDir is the folder {harness} names; stageScripts: the `{harness}/…` scripts its stages run for their parameters (StageDefinition.runsScripts). */
export function usedParts(config: ToolConfig, requirements: readonly Requirement[], harnessDir: string, stageScripts: readonly string[] = []): UsedParts {
  const list = [...strings([config.paths ?? {}, config.cohorts ?? {}, config.services ?? {}], []), ...stageScripts];
  const scripts = scriptTexts(list, harnessDir);
  const services = Object.values(config.services ?? {}).flatMap((s) => {
    const svc = s as { kind?: unknown; with?: Record<string, unknown> };
    const kind = String(svc?.kind ?? '');
    return svc?.with?.['estargz'] === true ? [kind, `${kind}+estargz`] : [kind];
  });
  const images = Object.values(((config.artifacts ?? {})['images'] ?? {}) as Record<string, { kind?: unknown }>).map((i) => String(i?.kind ?? ''));
  return {
    tools: usedToolsIn({ strings: list, scripts, serviceKinds: services, imageKinds: images, requirements }),
    kernel: kernelFeaturesIn(scripts),
  };
}

/**
 * Pure: the host requirements (artifacts/host-requirements.ts) a pipeline's
 * used parts need: the binaries it uses, the kernel file systems and
 * /dev/fuse of its kernel features, the mount helpers when it mounts
 * anything, and root when it runs any pinned tool or mount. `pipeline doctor
 * -f FILE` lists these.
 */
export function requirementsUsed<R extends { id: string }>(reqs: readonly R[], parts: UsedParts): R[] {
  const mounts = parts.kernel.length > 0;
  const keep = (id: string): boolean => {
    if (id === 'binary-fusermount3' || id === 'dev-fuse') return parts.kernel.includes('fuse');
    if (id === 'binary-unshare' || id === 'binary-mountpoint') return mounts;
    if (id.startsWith('binary-')) return parts.tools.includes(id.slice('binary-'.length));
    if (id.startsWith('fs-')) return parts.kernel.includes(id.slice('fs-'.length));
    if (id === 'root') return mounts || parts.tools.length > 0;
    return true;
  };
  return reqs.filter((r) => keep(r.id));
}

// The change set of a committed layer: its tar (from `docker save`) listed as
// sorted lines `TYPE SIZE PATH` (type from the mode letter: - d l h c b p;
// size of regular files only; whiteouts appear as their .wh. names). Modes,
// owners and times are left out: the two diff methods must agree on what
// changed, not on when it was archived.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { docker, type DockerTarget } from './docker-cli.js';

const run = promisify(execFile);

/** Pure: `tar -tv --numeric-owner` output -> sorted listing lines. */
export function listingLines(tarTv: string): string[] {
  const out: string[] = [];
  for (const raw of tarTv.split('\n')) {
    if (!raw.trim()) continue;
    // perms owner size date time name...; a device (c, b) has "major,minor" where the size goes, maybe with a space after the comma
    const m = /^(\S)\S*\s+\S+\s+(\d+|\d+,\s*\d+)\s+\S+\s+\S+\s+(.*)$/.exec(raw);
    if (!m) throw new Error(`unexpected tar listing line: ${raw}`);
    const type = m[1]!;
    let name = m[3]!;
    if (type === 'l') name = name.replace(/ -> .*$/, '');
    if (type === 'h') name = name.replace(/ link to .*$/, '');
    name = name.replace(/^\.\//, '').replace(/\/$/, '');
    if (name === '' || name === '.') continue;
    const size = type === '-' ? m[2]! : '0';
    out.push(`${type} ${size} ${name}`);
  }
  return out.sort();
}

/** Pure: lines in one listing and not the other, each prefixed by the side that has it. */
export function listingDifferences(a: readonly string[], b: readonly string[], names: [string, string]): string[] {
  const setA = new Set(a);
  const setB = new Set(b);
  return [...a.filter((l) => !setB.has(l)).map((l) => `only ${names[0]}: ${l}`), ...b.filter((l) => !setA.has(l)).map((l) => `only ${names[1]}: ${l}`)];
}

/** Pure: the directories a listing holds. */
export function listedDirectories(lines: readonly string[]): Set<string> {
  return new Set(lines.filter((l) => l.startsWith('d ')).map((l) => l.slice(l.indexOf(' ', 2) + 1)));
}

const OPAQUE = '/.wh..wh..opq';

/**
 * Pure: the listing without the opaque markers (`DIR/.wh..wh..opq`) of directories no lower
 * layer holds. overlayfs marks a directory it creates opaque as an optimisation that may fail
 * (the kernel's ovl_create_upper), so the native diff carries the marker on some runs and not
 * others; over a directory the layers below do not have it hides nothing. A marker over a
 * lower directory hides its content and stays.
 */
export function withoutNoOpOpaqueMarkers(lines: readonly string[], lowerDirs: ReadonlySet<string>): string[] {
  return lines.filter((l) => {
    const path = l.slice(l.indexOf(' ', 2) + 1);
    return !(path.endsWith(OPAQUE) && !lowerDirs.has(path.slice(0, -OPAQUE.length)));
  });
}

/** The listing of a tar file. */
export async function tarFileListing(tarFile: string): Promise<string[]> {
  const { stdout } = await run('tar', ['-tv', '--numeric-owner', '-f', tarFile], { maxBuffer: 512 * 1024 * 1024 });
  return listingLines(stdout);
}

/**
 * Saves the image, extracts its top layer tar into `workDir` and returns the
 * listing and the layer tar's path (removed by the caller with workDir).
 */
export async function topLayerListing(
  target: DockerTarget,
  image: string,
  workDir: string,
): Promise<{ lines: string[]; layerTar: string; layerTarBytes: number }> {
  const dir = mkdtempSync(join(workDir, 'save-'));
  try {
    const saved = join(dir, 'image.tar');
    await docker(target, ['save', '-o', saved, image]);
    await run('tar', ['-xf', saved, '-C', dir, 'manifest.json']);
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { Layers: string[] }[];
    const top = manifest[0]!.Layers[manifest[0]!.Layers.length - 1]!;
    await run('tar', ['-xf', saved, '-C', dir, top]);
    rmSync(saved);
    const layerTar = join(dir, top);
    return { lines: await tarFileListing(layerTar), layerTar, layerTarBytes: statSync(layerTar).size };
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

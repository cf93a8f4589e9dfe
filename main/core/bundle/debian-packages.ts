// The connected side's .deb files: the catalog pins each package a database needs by its .deb's sha256; the
// bundle builder takes the file from a folder of .debs, and asks apt to download the exact version there when
// it is missing (the digest check that follows is what makes it the pinned file, wherever it came from).
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { BundleError } from './bundle-errors';

const run = promisify(execFile);

/** Where .deb files are kept between builds unless the builder is given a folder. */
export function defaultPackagesDir(): string {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'navin-bundle-packages');
}

/** The file names apt gives a package's .deb (an epoch's colon written %3a), for the architecture or "all". */
export function debFileNames(pkg: string, version: string, architecture: string): string[] {
  const v = version.replace(/:/g, '%3a');
  return [`${pkg}_${v}_${architecture}.deb`, `${pkg}_${v}_all.deb`];
}

export interface PackageFetchOptions {
  dir: string;
  /** Download a missing .deb with apt-get download (default true); false: a missing one fails the build. */
  download?: boolean;
}

/** The path of package=version's .deb for the architecture, downloaded into the folder first when missing. */
export async function debianPackageFile(pkg: string, version: string, architecture: string, opts: PackageFetchOptions): Promise<string> {
  const find = (): string | null =>
    debFileNames(pkg, version, architecture)
      .map((n) => join(opts.dir, n))
      .find((p) => existsSync(p)) ?? null;
  const found = find();
  if (found) return found;
  if (opts.download === false)
    throw new BundleError('artifact_source_mismatch', `${pkg} ${version} (${architecture}): no .deb in ${opts.dir}`, {
      package: pkg,
      expected: version,
    });
  mkdirSync(opts.dir, { recursive: true });
  try {
    // An architecture-independent package answers to the host's architecture as well.
    await run('apt-get', ['download', '-q', `${pkg}:${architecture}=${version}`], {
      cwd: opts.dir,
      timeout: 10 * 60_000,
      maxBuffer: 4 << 20,
    });
  } catch (error) {
    const e = error as { stderr?: string; message: string };
    throw new BundleError(
      'artifact_source_mismatch',
      `${pkg} ${version} (${architecture}) cannot be downloaded: ${(e.stderr || e.message).trim().slice(-1000)}`,
      { package: pkg, expected: version },
    );
  }
  const got = find();
  if (!got)
    throw new BundleError(
      'artifact_source_mismatch',
      `apt-get download of ${pkg} ${version} (${architecture}) left no .deb in ${opts.dir}`,
      {
        package: pkg,
        expected: version,
      },
    );
  return got;
}

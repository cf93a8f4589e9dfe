// Every installed package must run on the oldest Node this project declares: a dependency that raises the floor
// (as @nats-io/nuid 3 did, declaring Node 22) is pinned in package.json's overrides or replaced, not ignored.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const read = (file: string): unknown => JSON.parse(readFileSync(join(root, file), 'utf8'));

interface LockEntry {
  version?: string;
  engines?: { node?: string } | string[];
}

describe('the dependency tree', () => {
  it('holds no package whose declared Node engine excludes our own floor', () => {
    const ours = (read('package.json') as { engines: { node: string } }).engines.node;
    const floor = semver.minVersion(ours);
    expect(floor, `package.json engines.node ${ours}`).not.toBeNull();
    const lock = read('package-lock.json') as { packages: Record<string, LockEntry> };
    const refused = Object.entries(lock.packages).flatMap(([path, entry]) => {
      const node = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      return node && !semver.satisfies(floor!, node) ? [`${path}@${entry.version ?? '?'} wants node ${node}`] : [];
    });
    expect(refused).toEqual([]);
  });
});

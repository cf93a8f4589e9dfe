// The cached root file system's key and package list.
import { expect, it } from 'vitest';
import { packageList, rootfsKey } from './rootfs';

it('keys the cached root file system by its package list, whatever the order or repeats', () => {
  expect(rootfsKey(['jq', 'curl'])).toBe(rootfsKey(['curl', 'jq', 'curl']));
  expect(rootfsKey([])).not.toBe(rootfsKey(['curl']));
  expect(rootfsKey([])).toMatch(/^[0-9a-f]{16}$/);
});

it('always holds systemd and what a copied Node.js runtime links, extra packages added once', () => {
  expect(packageList(['systemd', 'curl'])).toEqual([...packageList(), 'curl'].sort());
  expect(packageList()).toEqual(
    expect.arrayContaining(['systemd', 'systemd-sysv', 'dbus', 'iproute2', 'ca-certificates', 'libstdc++6', 'libgcc-s1']),
  );
});

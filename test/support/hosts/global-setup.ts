// vitest globalSetup of the hosts project: builds (or finds cached) the root file system once before any
// worker boots a host, and at the end sweeps what crashed workers of this run left.
import { hostsAvailable } from './available';
import { ensureRootfs } from './rootfs';
import { sweepStaleHosts } from './sweep';

export default async function setup(): Promise<() => Promise<void>> {
  const avail = hostsAvailable();
  if (!avail.ok) {
    console.warn(`test hosts unavailable: ${avail.reason}`);
    return async () => {};
  }
  await sweepStaleHosts();
  await ensureRootfs({ onProgress: (line) => console.log(line) });
  return async () => {
    const r = await sweepStaleHosts();
    if (r.swept.length > 0) console.warn(`test hosts: swept leftovers of subnets ${r.swept.join(', ')} (a suite did not close its hosts)`);
  };
}

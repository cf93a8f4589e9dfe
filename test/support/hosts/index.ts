// Real Debian 12 test hosts for the suites: bootHosts(n) gives n hosts with systemd as PID 1 on one bridge of
// their own, torn down by close(). Suites that boot hosts are named *.hosts.test.ts (see vitest.config.ts).
export { hostsAvailable, type HostsAvailability } from './available';
export { describeHosts } from './describe-hosts';
export { HostsError, type HostsErrorCode } from './errors';
export type { ExecOptions, ExecResult, TestHost } from './host';
export { cacheRoot, ensureRootfs, HOST_PACKAGES, packageList, rootfsKey, type Rootfs, type RootfsOptions } from './rootfs';
export { bootHosts, type BootOptions, type HostSuite } from './suite';
export { sweepStaleHosts, type SweepResult } from './sweep';

// Errors of the test-host support, each with a stable code so a failing suite says which step broke.

export type HostsErrorCode =
  | 'hosts_unavailable'
  | 'rootfs_build_failed'
  | 'no_free_subnet'
  | 'host_boot_failed'
  | 'host_exec_timeout'
  | 'host_copy_failed'
  | 'command_failed';

export class HostsError extends Error {
  override readonly name = 'HostsError';
  constructor(
    readonly code: HostsErrorCode,
    message: string,
  ) {
    super(message);
  }
}

// The launcher's command line: help, and usage errors with exit 2 before anything starts or is written.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from './cli.js';

const captured = (): { out: () => string; err: () => string } => {
  let out = '';
  let err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((c) => ((out += String(c)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((c) => ((err += String(c)), true));
  return { out: () => out, err: () => err };
};

describe('npm run kube-api', () => {
  afterEach(() => vi.restoreAllMocks());

  it('--help prints the usage with the options and the kubeconfig it writes, exit 0', async () => {
    const io = captured();
    expect(await main(['--help'])).toBe(0);
    expect(io.out()).toContain('npm run kube-api -- [--port N] [--kubeconfig FILE] [--version vX.Y.Z]');
    expect(io.out()).toContain('default kube-api.kubeconfig in the current directory, mode 0600');
  });

  it.each([
    [['--port', 'http'], 'kube-api: --port must be a TCP port number, not "http"'],
    [['--port', '70000'], 'kube-api: --port must be a TCP port number, not "70000"'],
    [['--version', '1.30'], 'kube-api: --version must look like v1.30.0, not "1.30"'],
    [['--nodes', '3'], "kube-api: Unknown option '--nodes'"],
  ])('%j is a usage error (exit 2) that says why', async (argv, message) => {
    const io = captured();
    expect(await main(argv)).toBe(2);
    expect(io.err()).toContain(message);
    expect(io.out()).toBe('');
  });
});

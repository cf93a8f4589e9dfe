// The test server as a program: `npm run kube-api` starts it on loopback and writes a cluster-admin kubeconfig,
// so the whole import path can be tried with curl and kubectl without a cluster.
import { writeFile, rename } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startKubeApiServer } from './server.js';

const USAGE = `npm run kube-api -- [--port N] [--kubeconfig FILE] [--version vX.Y.Z]

Starts the Kubernetes API test server on 127.0.0.1 (a free port unless --port) with three Ready nodes, and
writes a cluster-admin kubeconfig to FILE (default kube-api.kubeconfig in the current directory, mode 0600). Objects live in memory
until Ctrl-C. kubectl works against it: apply, diff, apply --server-side, get --watch, auth can-i, create token.`;

export const main = async (argv: string[]): Promise<number> => {
  let values: { port?: string; kubeconfig?: string; version?: string; help?: boolean };
  try {
    values = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        kubeconfig: { type: 'string' },
        version: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }).values;
  } catch (e) {
    process.stderr.write(`kube-api: ${(e as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`kube-api: --port must be a TCP port number, not "${values.port}"\n`);
    return 2;
  }
  if (values.version !== undefined && !/^v\d+\.\d+\.\d+/.test(values.version)) {
    process.stderr.write(`kube-api: --version must look like v1.30.0, not "${values.version}"\n`);
    return 2;
  }
  const server = await startKubeApiServer({ port, ...(values.version ? { gitVersion: values.version } : {}) });
  // Relative to where the user typed `npm run kube-api` (npm runs scripts from the package root).
  const path = resolve(process.env.INIT_CWD ?? process.cwd(), values.kubeconfig ?? 'kube-api.kubeconfig');
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, server.kubeconfigFor(server.adminToken, { name: 'kube-api' }), { mode: 0o600 });
  await rename(tmp, path);
  process.stdout.write(
    `kube-api: Kubernetes API test server at ${server.url}\n` +
      `kube-api: cluster-admin kubeconfig written to ${path}\n` +
      `kube-api: export KUBECONFIG=${path}\n` +
      'kube-api: press Ctrl-C to stop (everything it holds is lost)\n',
  );
  await new Promise<void>((done) => {
    const stop = (): void => void server.close().then(done);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  process.stdout.write('kube-api: stopped\n');
  return 0;
};

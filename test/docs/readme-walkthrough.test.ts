// README's "Trying it without a cluster", run as written with bash on a fresh data dir: `navin-manager` put on
// PATH by `npm link`, the test server started by its launcher, `navin-manager serve`, then the marked block and
// every other curl line of the README, in the same shell.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, startServe, type Served } from '../support/cli';
import { hasKubectl } from '../support/kube-api/test-helpers';
import { tempDir } from '../support/temp-dir';

const MARKER = '<!-- readme-walkthrough:';
const README = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
const walkthrough = (): string => {
  const at = README.indexOf(MARKER);
  const m = /```sh\n([\s\S]*?)```/.exec(README.slice(at));
  if (at < 0 || !m?.[1]) throw new Error('README has no marked walkthrough block');
  return m[1];
};
/** The curl command lines of the README's sh blocks outside the walkthrough (the walkthrough defines their variables). */
const otherCurlLines = (): string[] => {
  const rest = README.replace(walkthrough(), '');
  return [...rest.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => (m[1] ?? '').split('\n').filter((l) => /^curl\s/.test(l)));
};

const missing = [
  ...['curl', 'jq'].filter((t) => spawnSync('sh', ['-c', `command -v ${t}`]).status !== 0),
  ...(hasKubectl ? [] : ['kubectl']),
];

describe.skipIf(missing.length > 0)(
  missing.length ? `README walkthrough: skipped, ${missing.join(', ')} missing` : 'README walkthrough',
  () => {
    const tmp = tempDir('navin-readme-');
    const dataDir = join(tmp.path, 'data');
    // Where the user stands when typing the commands: the launcher writes its kubeconfig there.
    const work = join(tmp.path, 'work');
    const npmPrefix = join(tmp.path, 'npm');
    let serve: Served | undefined;
    let kube: ReturnType<typeof spawn> | undefined;
    let kubeOut = '';

    beforeAll(async () => {
      await mkdir(work);
      // `npm link` as README says (its build step skipped: the suite runs on a build already made).
      const link = spawnSync('npm', ['link', '--ignore-scripts', '--no-audit', '--no-fund'], {
        cwd: REPO_ROOT,
        encoding: 'utf8',
        env: { ...process.env, NPM_CONFIG_PREFIX: npmPrefix },
        timeout: 60_000,
      });
      if (link.status !== 0) throw new Error(`npm link failed:\n${link.stderr}`);
      // As `npm run kube-api` starts it from the work directory: npm runs scripts from the package root and
      // says where the user was in INIT_CWD.
      kube = spawn(process.execPath, [join(REPO_ROOT, 'test/support/kube-api/cli.mjs')], {
        cwd: REPO_ROOT,
        env: { ...process.env, INIT_CWD: work },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      kube.stdout!.on('data', (c: Buffer) => (kubeOut += c.toString()));
      kube.stderr!.on('data', (c: Buffer) => (kubeOut += c.toString()));
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`kube-api did not start:\n${kubeOut}`)), 60_000);
        kube!.stdout!.on('data', () => {
          if (/Ctrl-C/.test(kubeOut)) {
            clearTimeout(timer);
            resolve();
          }
        });
        kube!.on('exit', (code) => reject(new Error(`kube-api exited with ${code}:\n${kubeOut}`)));
      });
      serve = await startServe(['--data-dir', dataDir]);
    }, 90_000);
    afterAll(async () => {
      await serve?.stop();
      if (kube && kube.exitCode === null) {
        const exited = new Promise((r) => kube!.once('exit', r));
        kube.kill('SIGINT');
        await exited;
      }
      tmp.remove();
    });

    it('the launcher wrote a 0600 cluster-admin kubeconfig where it was started from, and said where', () => {
      const kubeconfig = join(work, 'kube-api.kubeconfig');
      expect(kubeOut).toContain(`kube-api: cluster-admin kubeconfig written to ${kubeconfig}\n`);
      expect(kubeOut).toContain(`kube-api: export KUBECONFIG=${kubeconfig}\n`);
      expect(statSync(kubeconfig).mode & 0o777).toBe(0o600);
      expect(readFileSync(kubeconfig, 'utf8')).toContain('certificate-authority-data');
    });

    it('the examples trust the console with the CA the data dir holds, never with -k', () => {
      const curls = [...walkthrough().split('\n'), ...otherCurlLines()].filter((l) => /\bcurl\s/.test(l));
      expect(curls.length).toBeGreaterThanOrEqual(2);
      for (const line of curls) {
        expect(line).toContain('--cacert "$NAVIN_DATA_DIR/tls/ca.crt"');
        expect(line).not.toMatch(/\s(-k|--insecure)\b/);
      }
    });

    it('runs as written: a cluster created, the import RBAC applied with kubectl, registered, its inventory read, the audit chain intact, manager.pem saved', () => {
      const extra = otherCurlLines();
      expect(extra.some((l) => l.includes('/api/v1/keys/manager.pem'))).toBe(true);
      const r = spawnSync('bash', ['--norc', '--noprofile', '-euo', 'pipefail', '-c', `${walkthrough()}\n${extra.join('\n')}\n`], {
        stdio: ['ignore', 'pipe', 'pipe'],
        cwd: work,
        encoding: 'utf8',
        timeout: 120_000,
        // README's export line, with the ports this run got.
        env: {
          PATH: `${join(npmPrefix, 'bin')}:${process.env.PATH ?? ''}`,
          HOME: tmp.path,
          NAVIN_DATA_DIR: dataDir,
          NAVIN: serve!.url.replace(/\/$/, ''),
          KUBECONFIG: join(work, 'kube-api.kubeconfig'),
        },
      });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      const lines = r.stdout.trim().split('\n');
      expect(lines[0]).toBe('navin-manager: user alice created with role admin');
      expect(lines).toEqual(
        expect.arrayContaining([
          'namespace/navin-platform created',
          'customresourcedefinition.apiextensions.k8s.io/managedcomponents.platform.navin.ai created',
          'serviceaccount/navin-import created',
          'registered: Kubernetes v1.30.0, 3 nodes',
          'navin-control-plane ready=true',
          'navin-worker2 ready=true',
        ]),
      );
      expect(JSON.parse(lines[lines.length - 1] ?? '')).toMatchObject({ ok: true });
      expect(readFileSync(join(work, 'manager.pem'), 'utf8')).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    }, 150_000);
  },
);

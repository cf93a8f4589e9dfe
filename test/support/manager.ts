// A manager core in a temp data dir, with a router and helpers to call the API as a given user.
import { openManager, type Manager } from '../../main/core/manager';
import { consoleApi } from '../../main/api/console-api';
import type { ApiResult, Credentials, Method, Router } from '../../main/core/http/router';
import type { Role } from '../../main/core/accounts/accounts-tables';
import * as OTPAuth from 'otpauth';
import type { Clock } from '../../main/core/clock';
import { tempDir } from './temp-dir';

export interface TestManager {
  manager: Manager;
  router: Router;
  dataDir: string;
  call(method: Method, path: string, body?: unknown, credentials?: Credentials): Promise<ApiResult>;
  /** Creates a user and returns session credentials (with its CSRF token) for it. */
  login(name: string, role: Role): Promise<Credentials>;
  /** Enrols a TOTP second factor for an existing user, the code computed at the manager's time. */
  enrolMfa(name: string): Promise<void>;
  /** `requester` asks for an approval with `body`, `approver` approves it: the approval's id. */
  approved(body: Record<string, unknown>, requester: Credentials, approver: Credentials): Promise<string>;
  close(): void;
}

export function testManager(opts: { clock?: Clock } = {}): TestManager {
  const dir = tempDir('navin-manager-');
  const manager = openManager({ dataDir: dir.path, mode: 'headless', clock: opts.clock });
  const router = consoleApi();
  const call = (method: Method, path: string, body?: unknown, credentials: Credentials = {}): Promise<ApiResult> => {
    const url = new URL(path, 'https://x');
    return router.handle(manager, { method, path: url.pathname, query: url.searchParams, body, credentials });
  };
  return {
    manager,
    router,
    dataDir: dir.path,
    call,
    async login(name, role) {
      await manager.accounts.addUser(name, role, 'correct horse battery', 'test');
      const res = await call('POST', '/api/v1/session', { name, password: 'correct horse battery' });
      if (res.status !== 200 || !res.session) throw new Error(`login failed: ${JSON.stringify(res.body)}`);
      return { session: res.session.token, csrf: res.session.csrf_token };
    },
    async enrolMfa(name) {
      const user = manager.accounts.listUsers().find((u) => u.name === name);
      if (!user) throw new Error(`no user ${name}`);
      const e = await manager.accounts.startMfaEnrolment(user.id, 'test');
      const at = (opts.clock ?? { now: () => new Date() }).now().getTime();
      const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(e.secret) }).generate({ timestamp: at });
      manager.accounts.confirmMfaEnrolment(user.id, code, 'test');
    },
    async approved(body, requester, approver) {
      const res = await call('POST', '/api/v1/approvals', { reason: 'change CHG-7', ...body }, requester);
      if (res.status !== 201) throw new Error(`approval request refused: ${res.status} ${JSON.stringify(res.body)}`);
      const id = (res.body as { id: string }).id;
      const decided = await call('POST', `/api/v1/approvals/${id}/approve`, {}, approver);
      if (decided.status !== 200) throw new Error(`approval refused: ${decided.status} ${JSON.stringify(decided.body)}`);
      return id;
    },
    close() {
      manager.close();
      dir.remove();
    },
  };
}

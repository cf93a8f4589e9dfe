// Bearer-token authentication: the admin token, static user tokens, and ServiceAccount JWTs bound to the SA's uid.
import { createHash, createPrivateKey, createPublicKey, randomBytes, sign, verify } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import type { StoredObject, UserInfo } from './types.js';

export const API_AUDIENCE = 'https://kubernetes.default.svc.cluster.local';

const b64url = (v: Buffer | string): string => Buffer.from(v).toString('base64url');

interface SaClaims {
  aud: string[];
  exp: number;
  iat: number;
  nbf: number;
  iss: string;
  sub: string;
  'kubernetes.io': { namespace: string; serviceaccount: { name: string; uid: string } };
}

export const serviceAccountUser = (namespace: string, name: string, uid?: string): UserInfo => ({
  username: `system:serviceaccount:${namespace}:${name}`,
  ...(uid ? { uid } : {}),
  groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, 'system:authenticated'],
});

export class Authenticator {
  readonly adminToken: string;
  private readonly staticTokens = new Map<string, UserInfo>();
  private readonly key: KeyObject;
  private readonly publicKey: KeyObject;
  private readonly kid: string;

  constructor(signingKeyPem: string, adminToken?: string) {
    this.key = createPrivateKey(signingKeyPem);
    this.publicKey = createPublicKey(this.key);
    this.kid = createHash('sha256')
      .update(this.publicKey.export({ type: 'spki', format: 'der' }))
      .digest('base64url')
      .slice(0, 43);
    this.adminToken = adminToken ?? `admin-${randomBytes(24).toString('hex')}`;
    this.staticTokens.set(this.adminToken, { username: 'admin', groups: ['system:masters', 'system:authenticated'] });
  }

  /** A token for any user name and groups (system:authenticated is added), for User and Group RBAC subjects. */
  userToken(username: string, groups: string[] = []): string {
    const token = `user-${randomBytes(24).toString('hex')}`;
    this.staticTokens.set(token, { username, groups: [...new Set([...groups, 'system:authenticated'])] });
    return token;
  }

  /** What the TokenRequest API issues: an RS256 JWT like the real one, bound to the ServiceAccount's uid. */
  issueServiceAccountToken(
    sa: StoredObject,
    expirationSeconds = 3600,
    audiences = [API_AUDIENCE],
  ): { token: string; expirationTimestamp: string } {
    const now = Math.floor(Date.now() / 1000);
    const claims: SaClaims = {
      aud: audiences,
      exp: now + expirationSeconds,
      iat: now,
      nbf: now,
      iss: API_AUDIENCE,
      sub: `system:serviceaccount:${sa.metadata.namespace ?? ''}:${sa.metadata.name}`,
      'kubernetes.io': { namespace: sa.metadata.namespace ?? '', serviceaccount: { name: sa.metadata.name, uid: sa.metadata.uid } },
    };
    const signingInput = `${b64url(JSON.stringify({ alg: 'RS256', kid: this.kid }))}.${b64url(JSON.stringify(claims))}`;
    const signature = sign('sha256', Buffer.from(signingInput), this.key);
    return {
      token: `${signingInput}.${b64url(signature)}`,
      expirationTimestamp: new Date((now + expirationSeconds) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    };
  }

  /**
   * The user of a bearer token, or undefined (401). A ServiceAccount token is valid while it has not expired,
   * carries the API audience, and its ServiceAccount still exists with the same uid.
   */
  authenticate(token: string, lookupSa: (namespace: string, name: string) => StoredObject | undefined): UserInfo | undefined {
    const fixed = this.staticTokens.get(token);
    if (fixed) return fixed;
    const parts = token.split('.');
    if (parts.length !== 3) return undefined;
    const [header = '', payload = '', signature = ''] = parts;
    if (!verify('sha256', Buffer.from(`${header}.${payload}`), this.publicKey, Buffer.from(signature, 'base64url'))) return undefined;
    let claims: SaClaims;
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as SaClaims;
    } catch {
      return undefined;
    }
    if (claims.exp * 1000 <= Date.now() || !claims.aud.includes(API_AUDIENCE)) return undefined;
    const { namespace, serviceaccount } = claims['kubernetes.io'];
    const sa = lookupSa(namespace, serviceaccount.name);
    if (!sa || sa.metadata.uid !== serviceaccount.uid) return undefined;
    return serviceAccountUser(namespace, serviceaccount.name, serviceaccount.uid);
  }
}

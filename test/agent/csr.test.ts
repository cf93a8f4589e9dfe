// The agents' PKCS#10 request as a renewal makes it (a CN alone): the manager CA's library reads it, it and openssl
// verify its signature, it asks for no extension, and a request whose signed part was altered verifies in neither.
// The request with SANs is proved through its task, tls.csr (node/tls-csr.test.ts).
import forge from 'node-forge';
import { spawnSync } from 'node:child_process';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newKeyAndRequest } from '../../agent/csr';
import { findOpenssl } from '../main/wire/openssl';

const OPENSSL = findOpenssl();
/** openssl 3.0 exits 0 whatever the verdict: its words are the verdict. */
const opensslSays = (args: string[], csrPem: string): string => {
  const r = spawnSync(OPENSSL!, ['req', ...args], { input: csrPem, encoding: 'utf8' });
  return `${r.stdout}${r.stderr}`.trim();
};

describe('the agent CSR', () => {
  it('is read by node-forge, names the CN and the new key, and verifies', () => {
    const { keyPem, csrPem } = newKeyAndRequest('urn:navin:host:h1');
    const csr = forge.pki.certificationRequestFromPem(csrPem);
    expect(csr.verify()).toBe(true);
    expect(csr.subject.getField('CN').value).toBe('urn:navin:host:h1');
    expect(csr.getAttribute({ name: 'extensionRequest' })).toBeNull();
    const fromCsr = forge.pki.publicKeyToPem(csr.publicKey as forge.pki.rsa.PublicKey);
    expect(createPublicKey(fromCsr).export({ type: 'spki', format: 'pem' })).toBe(
      createPublicKey(createPrivateKey(keyPem)).export({ type: 'spki', format: 'pem' }),
    );
  });

  it('is verified by openssl, with a CN and no requested extension', (t) => {
    if (OPENSSL === null) return t.skip('openssl is not installed: cannot verify the request with it');
    const { csrPem } = newKeyAndRequest('urn:navin:cluster:c1');
    expect(opensslSays(['-verify', '-noout'], csrPem)).toBe('Certificate request self-signature verify OK');
    const text = opensslSays(['-noout', '-text'], csrPem);
    expect(text).toMatch(/Subject: CN\s*=\s*urn:navin:cluster:c1\n/);
    // openssl 3.0 prints the "Requested Extensions:" heading even over none: no extension is no X509v3 line.
    expect(text).toMatch(/Attributes:\s*\n\s*\(none\)/);
    expect(text).not.toContain('X509v3');
  });

  it('does not verify once a byte of the signed request changed', (t) => {
    const { csrPem } = newKeyAndRequest('cluster-1');
    const der = Buffer.from(csrPem.replace(/-----[^-]+-----|\s/g, ''), 'base64');
    // The CN's last character sits inside the signed CertificationRequestInfo.
    const at = der.indexOf(Buffer.from('cluster-1')) + 8;
    der[at] = '2'.charCodeAt(0);
    const altered = `-----BEGIN CERTIFICATE REQUEST-----\n${der.toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`;
    expect(forge.pki.certificationRequestFromPem(altered).verify()).toBe(false);
    if (OPENSSL === null) return t.skip('openssl is not installed: cannot verify the request with it');
    expect(opensslSays(['-verify', '-noout'], altered)).toMatch(/^Certificate request self-signature verify failure/);
  });
});

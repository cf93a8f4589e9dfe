// The agents' hand-written PKCS#10 request: the manager CA's library reads it, its signature verifies, and a
// request whose signed part was altered does not.
import forge from 'node-forge';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newKeyAndRequest } from '../../agent/csr';

describe('the agent CSR', () => {
  it('is read by node-forge, names the CN and the new key, and verifies', () => {
    const { keyPem, csrPem } = newKeyAndRequest('urn:navin:host:h1');
    const csr = forge.pki.certificationRequestFromPem(csrPem);
    expect(csr.verify()).toBe(true);
    expect(csr.subject.getField('CN').value).toBe('urn:navin:host:h1');
    const fromCsr = forge.pki.publicKeyToPem(csr.publicKey as forge.pki.rsa.PublicKey);
    expect(createPublicKey(fromCsr).export({ type: 'spki', format: 'pem' })).toBe(
      createPublicKey(createPrivateKey(keyPem)).export({ type: 'spki', format: 'pem' }),
    );
  });

  it('does not verify once a byte of the signed request changed', () => {
    const { csrPem } = newKeyAndRequest('cluster-1');
    const der = Buffer.from(csrPem.replace(/-----[^-]+-----|\s/g, ''), 'base64');
    // The CN's last character sits inside the signed CertificationRequestInfo.
    const at = der.indexOf(Buffer.from('cluster-1')) + 8;
    der[at] = '2'.charCodeAt(0);
    const altered = `-----BEGIN CERTIFICATE REQUEST-----\n${der.toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`;
    expect(forge.pki.certificationRequestFromPem(altered).verify()).toBe(false);
  });
});

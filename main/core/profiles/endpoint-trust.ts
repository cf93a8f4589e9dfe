// The CAs the console trusts for the TLS endpoints bound to the services (the customer's PKI), beside the
// manager CA. One setting, a PEM bundle, checked certificate by certificate when it is set.
import type { Tables } from '../domain-tables';
import { X509Certificate } from 'node:crypto';
import { ValidationError } from '../errors';
import type { Store } from '../store/store';

const KEY = 'endpoint_trust_pems';
const PEM = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

export function endpointTrust(tables: Tables<'settings'>): string[] {
  return tables.settings.getJson<string[]>(KEY) ?? [];
}

export function setEndpointTrust(store: Store, tables: Tables<'settings'>, input: string, actor: string): string[] {
  const pems = input.match(PEM) ?? [];
  if (input.trim() !== '' && pems.length === 0) throw new ValidationError('ca_pem', 'no PEM certificate found in ca_pem');
  pems.forEach((pem, i) => {
    try {
      if (!new X509Certificate(pem).ca) throw new Error('not a CA');
    } catch (error) {
      throw new ValidationError('ca_pem', `certificate ${i + 1} of ca_pem is not a readable CA certificate (${(error as Error).message})`);
    }
  });
  store.tx(() => {
    tables.settings.setJson(KEY, pems.length ? pems : null);
    store.audit.append({ actor, action: 'settings.endpoint_trust', details: { certificates: pems.length } });
  });
  return pems;
}

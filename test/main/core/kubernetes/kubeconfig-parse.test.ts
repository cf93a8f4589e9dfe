// A kubeconfig is operator input: every shape the parser does not expect is kubeconfig_invalid, never a
// TypeError (a 500) nor a socket left without an error listener (an uncaught error that ended the manager).
import { expect, test } from 'vitest';
import { stringify } from 'yaml';
import { parseKubeconfig } from '../../../../main/core/kubernetes/kube-client';

const good = {
  clusters: [
    { name: 'c', cluster: { server: 'https://127.0.0.1:6443', 'certificate-authority-data': Buffer.from('CA').toString('base64') } },
  ],
  users: [{ name: 'u', user: { token: 'abc' } }],
  contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
  'current-context': 'x',
};

test('a well-formed kubeconfig gives its server, token and CA', () => {
  expect(parseKubeconfig(stringify(good))).toEqual({ server: 'https://127.0.0.1:6443', token: 'abc', caPem: 'CA' });
});

const cluster = (over: Record<string, unknown>) => ({
  ...good,
  clusters: [{ name: 'c', cluster: { ...good.clusters[0]!.cluster, ...over } }],
});

test.each([
  ['contexts not a list', { ...good, contexts: 5 }],
  ['a null cluster entry', { ...good, clusters: [null] }],
  ['a context that is a string', { ...good, contexts: [{ name: 'x', context: 'c' }] }],
  ['a server that is a list', cluster({ server: ['https://127.0.0.1:6443'] })],
  ['a CA that is a number', cluster({ 'certificate-authority-data': 5 })],
  ['a TLS server name that is a mapping', cluster({ 'tls-server-name': { a: 1 } })],
  ['a token that is a mapping', { ...good, users: [{ name: 'u', user: { token: { a: 1 } } }] }],
  ['a token with a line break', { ...good, users: [{ name: 'u', user: { token: 'a\nb' } }] }],
])('%s is kubeconfig_invalid', (_name, doc) => {
  expect(() => parseKubeconfig(stringify(doc))).toThrow(expect.objectContaining({ code: 'kubeconfig_invalid' }));
});

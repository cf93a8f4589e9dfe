// One call of the manager's console API with a bearer token over HTTPS (the manager's own CA): the answer's
// status and body, parsed when it is JSON.
import { request as httpsRequest } from 'node:https';

export function apiCall(
  baseUrl: string,
  caPem: Buffer,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = httpsRequest(
      new URL(path, baseUrl),
      { method, ca: caPem, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' } },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: text && String(res.headers['content-type']).includes('json') ? JSON.parse(text) : text,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

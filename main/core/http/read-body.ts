// Reads a request body up to a limit, for the console listener and the agent gateway alike: past the limit
// the request is cut off and the caller answers 413.

export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`a request body is at most ${limit} bytes`);
  }
}

export function readBody(req: NodeJS.ReadableStream & { destroy(): void }, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        reject(new BodyTooLarge(limit));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

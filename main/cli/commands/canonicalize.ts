// `navin-manager canonicalize`: prints the RFC 8785 canonical form of a JSON document, so an auditor can
// recompute the exact bytes a signature covers with any standard tool.
import { readFileSync } from 'node:fs';
import { canonicalize, parseJson } from '../../wire/canonical-json';
import { complain } from '../output';
import { UsageError, type Command } from '../usage';

export const canonicalizeCommand: Command = {
  name: 'canonicalize',
  usage: `navin-manager canonicalize [FILE|-] [--payload]

Prints the canonical JSON (no trailing newline, the exact signed bytes). With --payload, prints
the canonical form of the document's "payload" member: what an envelope's signature covers.`,
  options: { payload: { type: 'boolean' } },
  positionals: true,
  run(args) {
    if (args.positionals.length > 1) throw new UsageError('give one file, or - for stdin');
    const file = args.positionals[0] ?? '-';
    let text: string;
    try {
      text = readFileSync(file === '-' ? 0 : file, 'utf8');
    } catch (error) {
      throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
    }
    try {
      let value = parseJson(text);
      if (args.values.payload) {
        if (typeof value !== 'object' || value === null || !('payload' in value)) throw new Error('the document has no "payload" member');
        value = (value as { payload: unknown }).payload;
      }
      process.stdout.write(canonicalize(value));
      return 0;
    } catch (error) {
      const code = (error as { code?: string }).code ?? 'json_invalid';
      complain(`${code}: ${(error as Error).message}`);
      return 1;
    }
  },
};

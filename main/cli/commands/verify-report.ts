// `navin-manager verify-report`: an auditor's offline check of a signed acceptance report against manager.pem.
import { readFileSync } from 'node:fs';
import { verifyReport } from '../../wire/report-verify';
import { nodeEd25519 } from '../../wire/ed25519-node';
import { requireString, UsageError, type Command } from '../usage';

function read(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${what} ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

export const verifyReportCommand: Command = {
  name: 'verify-report',
  usage: `navin-manager verify-report --file report.json --public-key manager.pem

Checks that report.json is a signed document of type "report" whose signature is valid and
made with the key in manager.pem. Prints one line: "valid ..." (exit 0) or "invalid: <code> ..."
(exit 1: signature_invalid for a tampered payload, key_unknown for another key, type_mismatch,
malformed, pem_invalid). Exit 2 for a usage error or an unreadable file.`,
  options: { file: { type: 'string' }, 'public-key': { type: 'string' } },
  run(args) {
    const report = read(requireString(args, 'file'), 'report');
    const pem = read(requireString(args, 'public-key'), 'public key');
    const result = verifyReport(report, pem, nodeEd25519);
    if (result.ok) {
      const p = result.payload as Record<string, unknown>;
      process.stdout.write(
        `valid: report signed by key ${String(p.key_id)}${typeof p.verdict === 'string' ? `, verdict ${p.verdict}` : ''}\n`,
      );
      return 0;
    }
    process.stdout.write(`invalid: ${result.code}: ${result.message}\n`);
    return 1;
  },
};

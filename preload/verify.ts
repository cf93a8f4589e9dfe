// Offline verification of a signed report in the console: the wire contract's portable verifier (pure JS,
// @noble/ed25519) re-exported for the renderer, which may import nothing from main/ itself.
import { verifyReport as verifyWith } from '../main/wire/report-verify';
import { nobleEd25519 } from '../main/wire/ed25519-noble';
import type { ReportVerifyCode } from '../main/wire/report-verify';

export type ReportVerdict = { ok: true; payload: Record<string, unknown> } | { ok: false; code: ReportVerifyCode; message: string };

export function verifyReport(jsonText: string, publicKeyPem: string): ReportVerdict {
  const r = verifyWith(jsonText, publicKeyPem, nobleEd25519);
  return r.ok ? { ok: true, payload: r.payload as unknown as Record<string, unknown> } : { ok: false, code: r.code, message: r.message };
}

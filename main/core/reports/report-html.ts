// The readable form of a signed report: one self-contained, printable HTML page (inline CSS, no script, no
// external asset, a CSP that forbids both), in English or French from the same data. Every value is escaped.
// The page never vouches for itself: it tells the reader to verify the JSON with verify-report.
import { REPORT_CSS } from './report-style';
import { isPlainObject } from '../../wire/payloads';
import { LINE_STATUSES, REPORT_VERDICTS, type LineStatus, type ReportLine, type ReportVerdict } from '../../contract/check-types';
import { type Bilingual } from '../../contract/bilingual';
import { type SignedReport } from '../../contract/report-types';
import { statusCounts } from './verdict';
import { WORDS, type ReportLanguage, type ReportWords } from './report-i18n';

export type { ReportLanguage } from './report-i18n';
export { REPORT_LANGUAGES } from './report-i18n';

export const VERIFY_COMMAND = 'navin-manager verify-report --file report.json --public-key manager.pem';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

/** Escapes text for both element content and quoted attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"'`]/g, (c) => ESCAPES[c]!);
}

const isBilingual = (v: unknown): v is Bilingual =>
  isPlainObject(v) && typeof v.en === 'string' && typeof v.fr === 'string' && Object.keys(v).length === 2;
const pick = (v: unknown, lang: ReportLanguage): string => (isBilingual(v) ? v[lang] : typeof v === 'string' ? v : '');
const statusOf = (s: unknown): LineStatus | 'UNKNOWN' => (LINE_STATUSES.includes(s as LineStatus) ? (s as LineStatus) : 'UNKNOWN');
const verdictOfDoc = (s: unknown): ReportVerdict | 'UNKNOWN' =>
  REPORT_VERDICTS.includes(s as ReportVerdict) ? (s as ReportVerdict) : 'UNKNOWN';

const MAX_DEPTH = 4;

/** An observed value: scalars inline, objects as nested lists, long or deep ones as preformatted JSON. */
function renderValue(value: unknown, lang: ReportLanguage, w: ReportWords, depth = 0): string {
  if (value === null || value === undefined) return `<span class="null">${escapeHtml(w.none)}</span>`;
  if (typeof value === 'boolean') return `<span class="bool bool-${value}">${value ? 'true' : 'false'}</span>`;
  if (typeof value === 'number') return `<span class="num">${escapeHtml(value)}</span>`;
  if (typeof value === 'string') {
    if (value.includes('\n') || value.length > 160) return `<pre class="long">${escapeHtml(value)}</pre>`;
    return `<span class="str">${escapeHtml(value)}</span>`;
  }
  if (isBilingual(value)) return `<span class="str">${escapeHtml(value[lang])}</span>`;
  if (depth >= MAX_DEPTH) return `<pre class="json">${escapeHtml(JSON.stringify(value, null, 2))}</pre>`;
  if (Array.isArray(value)) {
    if (value.length === 0) return `<span class="null">[ ]</span>`;
    if (value.every((x) => x === null || ['string', 'number', 'boolean'].includes(typeof x)) && value.length <= 12) {
      return `<ul class="inline">${value.map((x) => `<li>${renderValue(x, lang, w, depth + 1)}</li>`).join('')}</ul>`;
    }
    return `<ol class="items">${value.map((x) => `<li>${renderValue(x, lang, w, depth + 1)}</li>`).join('')}</ol>`;
  }
  if (isPlainObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return `<span class="null">{ }</span>`;
    return `<dl class="kv">${entries.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${renderValue(v, lang, w, depth + 1)}</dd>`).join('')}</dl>`;
  }
  return `<span class="str">${escapeHtml(String(value))}</span>`;
}

function renderLine(line: ReportLine, index: number, lang: ReportLanguage, w: ReportWords): string {
  const status = statusOf(line.status);
  const evidence = (isPlainObject(line.evidence) ? line.evidence : {}) as Record<string, unknown>;
  const { method, at, reason, ...observed } = evidence;
  const reasonText = pick(reason, lang);
  return `
<article class="line status-${status}" id="line-${escapeHtml(line.id)}" data-line-id="${escapeHtml(line.id)}" data-status="${status}">
  <header class="line-head">
    <span class="num-badge">${index + 1}</span>
    <div class="line-title">
      <h3>${escapeHtml(pick(line.title, lang))}</h3>
      <p class="line-id"><code>${escapeHtml(line.id)}</code> · ${escapeHtml(w.ranAt)} <time>${escapeHtml(line.ran_at)}</time></p>
    </div>
    <span class="status status-${status}">${escapeHtml(status)}</span>
  </header>
  ${reasonText ? `<p class="reason"><strong>${escapeHtml(w.reason)}.</strong> ${escapeHtml(reasonText)}</p>` : ''}
  <dl class="evidence">
    <dt>${escapeHtml(w.whatRan)}</dt><dd>${escapeHtml(method ?? '')}</dd>
    <dt>${escapeHtml(w.when)}</dt><dd><time>${escapeHtml(at ?? '')}</time></dd>
    ${Object.keys(observed).length ? `<dt>${escapeHtml(w.observed)}</dt><dd>${renderValue(observed, lang, w)}</dd>` : ''}
  </dl>
</article>`;
}

export function renderReportHtml(doc: SignedReport, lang: ReportLanguage): string {
  const w = WORDS[lang];
  const p = doc.payload;
  const lines = Array.isArray(p.lines) ? p.lines : [];
  const verdict = verdictOfDoc(p.verdict);
  const counts = statusCounts(lines.map((l) => statusOf(l.status)).filter((s): s is LineStatus => s !== 'UNKNOWN'));
  const meta: [string, unknown, string?][] = [
    [w.cluster, p.cluster_name],
    [w.clusterId, p.cluster_id, 'mono'],
    [w.tenant, p.tenant],
    [w.reportId, p.report_id, 'mono'],
    [w.createdAt, p.created_at, 'mono'],
    [w.createdBy, p.created_by],
    [w.managerVersion, p.manager_version, 'mono'],
    [w.keyId, p.key_id, 'mono'],
    [w.keyFingerprint, p.key_fingerprint, 'mono break wide'],
  ];
  const verdictExplain = verdict === 'UNKNOWN' ? '' : w.verdictExplain[verdict];
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(`${w.documentTitle} — ${p.cluster_name} — ${p.created_at}`)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<main class="page">
  <header class="masthead">
    <div class="brand"><span class="mark" aria-hidden="true"></span>${escapeHtml(w.product)}<span class="sep">·</span>${escapeHtml(w.documentTitle)}</div>
    <div class="masthead-row">
      <div>
        <h1>${escapeHtml(w.heading)}</h1>
        <p class="subtitle">${escapeHtml(w.cluster)} <strong>${escapeHtml(p.cluster_name)}</strong> · ${escapeHtml(w.tenant)} <strong>${escapeHtml(p.tenant)}</strong> · <time>${escapeHtml(p.created_at)}</time></p>
      </div>
      <div class="verdict verdict-${verdict}" data-verdict="${verdict}">
        <span class="verdict-label">${escapeHtml(w.verdict)}</span>
        <span class="verdict-value">${escapeHtml(verdict)}</span>
      </div>
    </div>
    <p class="verdict-explain">${escapeHtml(verdictExplain)}</p>
  </header>

  <aside class="notice" role="note">
    <strong>${escapeHtml(w.notValidAlone)}</strong> ${escapeHtml(w.notValidAloneDetail)}
    <code class="cmd">${escapeHtml(VERIFY_COMMAND)}</code>
  </aside>

  <section class="block">
    <h2>${escapeHtml(w.details)}</h2>
    <dl class="meta">
      ${meta.map(([k, v, cls]) => `<div${cls?.includes('wide') ? ' class="wide"' : ''}><dt>${escapeHtml(k)}</dt><dd class="${cls ?? ''}">${escapeHtml(v ?? '')}</dd></div>`).join('\n      ')}
    </dl>
  </section>

  <section class="block">
    <h2>${escapeHtml(w.summary)} <span class="count">${escapeHtml(w.lineCount(lines.length))}</span></h2>
    <div class="tally">
      ${LINE_STATUSES.map((s) => `<div class="tally-item status-${s}"><span class="status status-${s}">${s}</span><span class="tally-n">${counts[s]}</span><span class="tally-legend">${escapeHtml(w.legend[s])}</span></div>`).join('\n      ')}
    </div>
    <table class="index">
      <thead><tr><th>#</th><th>${escapeHtml(w.check)}</th><th></th></tr></thead>
      <tbody>
      ${lines.map((l, i) => `<tr><td class="n">${i + 1}</td><td><span class="index-title">${escapeHtml(pick(l.title, lang))}</span><code>${escapeHtml(l.id)}</code></td><td class="s"><span class="status status-${statusOf(l.status)}">${escapeHtml(statusOf(l.status))}</span></td></tr>`).join('\n      ')}
      </tbody>
    </table>
  </section>

  <section class="block lines">
    <h2>${escapeHtml(w.checks)}</h2>
    ${lines.map((l, i) => renderLine(l, i, lang, w)).join('\n')}
  </section>

  <section class="block verify">
    <h2>${escapeHtml(w.verifyHeading)}</h2>
    <ol>
      <li>${escapeHtml(w.verifySteps[0])}</li>
      <li>${escapeHtml(w.verifySteps[1])}
        <dl class="meta compact">
          <div><dt>${escapeHtml(w.keyId)}</dt><dd class="mono">${escapeHtml(p.key_id)}</dd></div>
          <div><dt>${escapeHtml(w.keyFingerprint)}</dt><dd class="mono break">${escapeHtml(p.key_fingerprint ?? '')}</dd></div>
        </dl>
      </li>
      <li>${escapeHtml(w.verifySteps[2])}<pre class="cmd-block">${escapeHtml(VERIFY_COMMAND)}</pre>${escapeHtml(w.verifyExit)}</li>
      <li>${escapeHtml(w.verifySteps[3])}</li>
    </ol>
    <p class="sig"><span>${escapeHtml(w.signature)}</span><code class="break">${escapeHtml(doc.signature)}</code></p>
  </section>

  <footer class="foot">${escapeHtml(w.footer)} · ${escapeHtml(p.report_id)} · ${escapeHtml(p.cluster_name)} · ${escapeHtml(p.created_at)}</footer>
</main>
</body>
</html>
`;
}

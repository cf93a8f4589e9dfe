// The Security tab's certificates: per TLS port of the service and per host, the certificate the last check that
// handshook there saw (subject, SANs, issuer, serial, not-after, days left) and the TLS version it settled on.
// A port no check reached says so: nothing is shown that was not observed.
import type { ReactElement } from 'react';
import type { SheetEndpoint, SheetHandshake } from '../../../../preload/api';
import { useFormat, useT } from '../../app/stores';
import { Tone } from '../../components/Badges';
import { DaysLeft } from '../certificates/DaysLeft';

export function SheetCertificates({ endpoints }: { endpoints: SheetEndpoint[] }): ReactElement {
  const t = useT();
  const tls = endpoints.filter((e) => e.tls_capable && e.tls_enabled);
  if (tls.length === 0)
    return (
      <p className="muted" data-testid="sheet-certificates">
        {t('sheet.security.noCertificate')}
      </p>
    );
  return (
    <div data-testid="sheet-certificates">
      {tls.map((e) => (
        <section key={e.name} className="sheet-endpoint-certificates" data-testid="sheet-endpoint-certificates" data-port={e.port}>
          <h3>
            {t('sheet.security.cert.endpoint', { name: e.name, port: String(e.port) })}{' '}
            <span className="muted" data-testid="sheet-tls-versions">
              {e.tls_versions.length > 0
                ? t('sheet.security.cert.versions', { versions: e.tls_versions.join(', ') })
                : t('sheet.security.cert.noVersion')}
            </span>
          </h3>
          <ul className="sheet-handshakes">
            {e.handshakes.map((h) => (
              <HandshakeItem key={h.host_name} handshake={h} />
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

function HandshakeItem({ handshake: h }: { handshake: SheetHandshake }): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const o = h.observed;
  if (!o)
    return (
      <li data-testid="sheet-handshake" data-host={h.host_name} data-observed="false">
        <strong>{h.host_name}</strong> · <span className="muted">{t('sheet.security.cert.notObserved')}</span>
      </li>
    );
  const c = o.certificate;
  return (
    <li data-testid="sheet-handshake" data-host={h.host_name} data-observed="true" data-serial={c?.serial}>
      <strong>{h.host_name}</strong> · {o.protocol ?? t('sheet.security.cert.noHandshake')}
      <span className="muted">
        {' '}
        · {t('sheet.security.cert.seenBy', { check: `${o.check.kind} (${o.check.role})`, host: o.check.host_name, at: fmt.dateTime(o.at) })}
      </span>
      {c ? (
        <dl className="kv compact">
          <dt>{t('sheet.security.cert.subject')}</dt>
          <dd>{c.subject}</dd>
          <dt>{t('sheet.security.cert.sans')}</dt>
          <dd>{c.sans ? c.sans.join(', ') : t('sheet.security.cert.sansUnknown')}</dd>
          <dt>{t('sheet.security.cert.issuer')}</dt>
          <dd>{c.issuer}</dd>
          <dt>{t('sheet.security.cert.serial')}</dt>
          <dd>
            <code>{c.serial}</code>
          </dd>
          <dt>{t('sheet.security.cert.notAfter')}</dt>
          <dd>
            <time dateTime={c.not_after}>{fmt.dateTimeLong(c.not_after)}</time> · <DaysLeft days={c.days_left} />{' '}
            {c.expiring ? (
              <Tone tone="bad" testId="sheet-certificate-expiring">
                {t('sheet.security.cert.expiring')}
              </Tone>
            ) : null}
          </dd>
        </dl>
      ) : (
        <p className="muted">{t('sheet.security.cert.noCertificate')}</p>
      )}
    </li>
  );
}

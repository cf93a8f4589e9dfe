// The Upgrade panel of the Services tab: pick an installed service and a catalog version, see what the catalog
// says of that upgrade (compatibility, problems, migrations, irreversible ones, whether a rollback is possible),
// then upgrade (a stateful service is backed up first; the canary host first) or roll back. A refused rollback
// says why and, when the upgrade took a backup first, offers its restore: the previous version and its data.
import { useState, type ReactElement } from 'react';
import type { ApiError } from '../../api/client';
import { servicesStore, useServices, useT } from '../../app/stores';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Options } from '../../components/Options';
import { Panel } from '../../components/Panel';

interface RestoreOffer {
  offered: boolean;
  backup_set_id?: string;
  version?: string;
  why?: string;
}

/** The restore a rollback_refused answer offers, if it is that answer. */
function restoreOffer(error: ApiError | null): RestoreOffer | null {
  if (error?.code !== 'rollback_refused') return null;
  const r = (error.details as { restore?: RestoreOffer } | undefined)?.restore;
  return r && typeof r.offered === 'boolean' ? r : null;
}

/** With `service`, the panel is that service's (the component sheet's Upgrade tab): no picker. */
export function ServiceUpgrade({
  onStarted,
  service: only,
}: {
  onStarted: (service: string) => void;
  service?: string;
}): ReactElement | null {
  const t = useT();
  const { items, catalog, acting, upgradeCheck } = useServices.fields('items', 'catalog', 'acting', 'upgradeCheck');
  const [picked, setPicked] = useState('');
  const [to, setTo] = useState('');
  if (items.length === 0) return null;
  const service = items.find((s) => s.service === (only ?? picked)) ?? items[0]!;
  const versions = (catalog.find((c) => c.service === service.service)?.versions ?? [])
    .map((v) => v.version)
    .filter((v) => v !== service.version);
  const target = versions.includes(to) ? to : (versions[0] ?? '');
  const check = upgradeCheck && upgradeCheck.service === service.service && upgradeCheck.to === target ? upgradeCheck : null;
  const busy = acting.pending;
  const offer = acting.service === service.service ? restoreOffer(acting.error) : null;
  const started = (op: { service: string } | null): void => {
    if (op) onStarted(op.service);
  };

  return (
    <Panel titleId="service-upgrade-title" title={t('upgrade.title')} icon="refresh" testId="service-upgrade">
      <div className="form form-inline">
        <div className="field field-inline">
          <label htmlFor="upgrade-service">{t('upgrade.service')}</label>
          <select
            id="upgrade-service"
            value={service.service}
            disabled={only !== undefined}
            onChange={(e) => setPicked(e.target.value)}
            data-testid="upgrade-service"
          >
            <Options values={items.map((s) => s.service)} label={(n) => n} />
          </select>
          <span className="muted" data-testid="upgrade-current">
            {t('upgrade.current', { version: service.version })}
          </span>
        </div>
        <div className="field field-inline">
          <label htmlFor="upgrade-to">{t('upgrade.to')}</label>
          <select
            id="upgrade-to"
            value={target}
            onChange={(e) => setTo(e.target.value)}
            disabled={versions.length === 0}
            data-testid="upgrade-to"
          >
            <Options values={versions} label={(v) => v} />
          </select>
          <button
            type="button"
            className="btn btn-sm"
            disabled={!target}
            onClick={() => void servicesStore.getState().checkUpgrade(service.service, target)}
            data-testid="upgrade-check"
          >
            {t('upgrade.check')}
          </button>
        </div>
      </div>
      {versions.length === 0 ? <p className="muted">{t('upgrade.noOther')}</p> : null}
      {check?.error ? <ErrorNotice error={check.error} testId="upgrade-check-error" /> : null}
      {check?.answer ? (
        <div data-testid="upgrade-answer" data-compatible={String(check.answer.compatible)}>
          <p>
            {check.answer.compatible
              ? t('upgrade.compatible', { from: check.answer.from, to: check.answer.to })
              : t('upgrade.incompatible', { from: check.answer.from, to: check.answer.to })}{' '}
            {check.answer.stateful ? t('upgrade.backupFirst') : null}
          </p>
          {check.answer.problems.length > 0 ? (
            <ul data-testid="upgrade-problems">
              {check.answer.problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          ) : null}
          {check.answer.migrations.length > 0 ? (
            <ul data-testid="upgrade-migrations">
              {check.answer.migrations.map((m) => (
                <li key={m.name}>
                  <code>{m.name}</code> {m.description} {m.irreversible ? <strong>{t('upgrade.irreversible')}</strong> : null}
                </li>
              ))}
            </ul>
          ) : null}
          {check.answer.rollback && !check.answer.rollback.possible ? (
            <p data-testid="upgrade-no-rollback">{t('upgrade.noRollback', { reason: check.answer.rollback.reason })}</p>
          ) : null}
          {check.answer.compatible ? (
            <button
              type="button"
              className="btn btn-primary btn-sm"
              disabled={busy}
              onClick={() => void servicesStore.getState().upgrade(service.service, target).then(started)}
              data-testid="upgrade-submit"
            >
              {t('upgrade.submit', { service: service.service, to: target })}
            </button>
          ) : null}
        </div>
      ) : null}
      <p>
        <button
          type="button"
          className="btn btn-sm"
          disabled={busy}
          onClick={() => void servicesStore.getState().rollback(service.service).then(started)}
          data-testid="rollback-submit"
        >
          {t('upgrade.rollback', { service: service.service })}
        </button>
      </p>
      {offer ? (
        offer.offered && offer.backup_set_id ? (
          <p data-testid="restore-offer">
            {t('upgrade.restoreOffered', { version: offer.version ?? '' })}{' '}
            <button
              type="button"
              className="btn btn-sm"
              disabled={busy}
              onClick={() => void servicesStore.getState().restoreBackup(service.service, offer.backup_set_id!).then(started)}
              data-testid="restore-offer-submit"
            >
              {t('upgrade.restore')}
            </button>
          </p>
        ) : (
          <p data-testid="restore-not-offered">{t('upgrade.noRestore', { why: offer.why ?? '' })}</p>
        )
      ) : null}
    </Panel>
  );
}

// Settings: language and theme (kept in localStorage), what the console is connected to, the operator's second
// factor; for administrators the accounts, the remote audit (syslog), the DNS servers, the mirror and the CAs
// trusted for service endpoints.
import { useEffect, type ReactElement, type ReactNode } from 'react';
import { routerStore, systemStore, uiStore, useFormat, useRouter, useSession, useSystem, useT, useUi } from '../../app/stores';
import { OWN_SETTINGS_SECTIONS, SETTINGS_SECTIONS, settingsHash, type SettingsSection } from '../../stores/router';
import { TabPanel, Tabs } from '../../components/Tabs';
import { DnsPanel } from './DnsPanel';
import { EndpointTrustPanel } from './EndpointTrustPanel';
import { MirrorPanel } from './MirrorPanel';
import { SecurityPanel } from './SecurityPanel';
import { SyslogPanel } from './SyslogPanel';
import { UsersPanel } from './UsersPanel';
import { LanguageSwitch } from '../../components/LanguageSwitch';
import { THEMES, type ThemePreference } from '../../stores/ui';
import { ScreenHeader } from '../../components/ScreenHeader';
import { Panel } from '../../components/Panel';

const THEME_LABEL: Record<ThemePreference, 'settings.theme.light' | 'settings.theme.dark' | 'settings.theme.system'> = {
  light: 'settings.theme.light',
  dark: 'settings.theme.dark',
  system: 'settings.theme.system',
};

// A fixed sample, so the preview shows formatting rather than a changing clock.
const SAMPLE_DATE = '2025-03-14T09:26:53Z';
const SAMPLE_NUMBER = 1234567.891;

export function SettingsScreen(): ReactElement {
  const t = useT();
  const fmt = useFormat();
  const theme = useUi((s) => s.theme);
  const { version, transport } = useSystem.fields('version', 'transport');
  const section = useRouter((s) => s.settingsSection);
  const isAdmin = useSession((s) => s.user?.role === 'admin');
  const sections = isAdmin ? SETTINGS_SECTIONS : OWN_SETTINGS_SECTIONS;
  const shown: SettingsSection = sections.includes(section) ? section : 'preferences';

  useEffect(() => {
    void systemStore.getState().loadVersion();
  }, []);

  const na = t('settings.about.unavailable');

  return (
    <section className="screen screen-settings" aria-labelledby="screen-title" data-testid="screen-settings">
      <ScreenHeader title={t('settings.title')} subtitle={t('settings.subtitle')} />

      <Tabs
        tabs={sections.map((id) => ({ id, label: t(`settings.section.${id}`), href: settingsHash(id) }))}
        current={shown}
        label={t('settings.title')}
        idPrefix="settings"
        onSelect={(id) => routerStore.getState().openSettings(id)}
      />

      {shown !== 'preferences' ? (
        <TabPanel idPrefix="settings" current={shown}>
          {shown === 'users' ? <UsersPanel /> : null}
          {shown === 'security' ? <SecurityPanel /> : null}
          {shown === 'syslog' ? <SyslogPanel /> : null}
          {shown === 'dns' ? <DnsPanel /> : null}
          {shown === 'mirror' ? <MirrorPanel /> : null}
          {shown === 'endpoints' ? <EndpointTrustPanel /> : null}
        </TabPanel>
      ) : (
        <MaybePanel tabbed>
          <div className="settings-grid">
            <Panel titleId="settings-language" title={t('settings.language.title')}>
              <p className="help">{t('settings.language.help')}</p>
              <LanguageSwitch name="language" legend={t('settings.language.title')} compact />
              <p className="help preview">
                {t('settings.preview', { date: fmt.dateTimeLong(SAMPLE_DATE), number: fmt.number(SAMPLE_NUMBER) })}
              </p>
            </Panel>

            <Panel titleId="settings-theme" title={t('settings.theme.title')}>
              <p className="help">{t('settings.theme.help')}</p>
              <fieldset className="segmented segmented-compact" data-testid="theme-switch">
                <legend className="visually-hidden">{t('settings.theme.title')}</legend>
                {THEMES.map((th) => (
                  <label key={th} className="segmented-option">
                    <input type="radio" name="theme" value={th} checked={theme === th} onChange={() => uiStore.getState().setTheme(th)} />
                    <span>{t(THEME_LABEL[th])}</span>
                  </label>
                ))}
              </fieldset>
            </Panel>

            <Panel titleId="settings-about" title={t('settings.about.title')}>
              <dl className="kv">
                <dt>{t('settings.about.version')}</dt>
                <dd data-testid="about-version">{version ? <code>{version.version}</code> : na}</dd>
                <dt>{t('settings.about.api')}</dt>
                <dd>{version ? <code>{version.api}</code> : na}</dd>
                <dt>{t('settings.about.mode')}</dt>
                <dd>{version ? t(version.mode === 'desktop' ? 'app.mode.desktop' : 'app.mode.headless') : na}</dd>
                <dt>{t('settings.about.transport')}</dt>
                <dd>{t(transport === 'bridge' ? 'settings.about.transport.bridge' : 'settings.about.transport.http')}</dd>
              </dl>
            </Panel>
          </div>
        </MaybePanel>
      )}
    </section>
  );
}

function MaybePanel({ tabbed, children }: { tabbed: boolean; children: ReactNode }): ReactElement {
  return tabbed ? (
    <TabPanel idPrefix="settings" current="preferences">
      {children}
    </TabPanel>
  ) : (
    <>{children}</>
  );
}

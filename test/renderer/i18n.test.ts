import { describe, expect, it } from 'vitest';
import { en, fr } from '../../renderer/src/i18n/dictionaries';
import {
  formatDateTime,
  formatNumber,
  isMessageKey,
  makeTranslator,
  placeholdersOf,
  translate,
  translatePlural,
} from '../../renderer/src/i18n';

const enKeys = Object.keys(en).sort();
const frKeys = Object.keys(fr).sort();

describe('dictionaries', () => {
  it('have the same keys', () => {
    expect(frKeys.filter((k) => !(k in en))).toEqual([]);
    expect(enKeys.filter((k) => !(k in fr))).toEqual([]);
  });

  it('have the same placeholders for every key', () => {
    const mismatches = enKeys.filter((k) => {
      const key = k as keyof typeof en;
      return placeholdersOf(en[key]).join(',') !== placeholdersOf(fr[key]).join(',');
    });
    expect(mismatches).toEqual([]);
  });

  it('have no empty message', () => {
    expect(enKeys.filter((k) => !en[k as keyof typeof en].trim())).toEqual([]);
    expect(frKeys.filter((k) => !fr[k as keyof typeof fr].trim())).toEqual([]);
  });

  it('have an error message and a hint for every API error code', () => {
    const codes = [
      'bad_request',
      'invalid_json',
      'invalid_field',
      'unauthenticated',
      'forbidden',
      'csrf_missing',
      'not_found',
      'conflict',
      'name_taken',
      'account_locked',
      'invalid_credentials',
      'setup_done',
      'setup_token_invalid',
      'ticket_invalid',
      'method_not_allowed',
      'body_too_large',
      'rate_limited',
      'token_expired',
      'token_revoked',
      'internal',
      'profile_blocked',
      'preflight_failed',
      'approval_required',
      'approval_not_found',
      'approval_not_approved',
      'approval_used',
      'approval_expired',
      'approval_wrong_user',
      'approval_wrong_target',
      'approval_self',
      'approval_decided',
      'mfa_code_invalid',
      'mfa_token_invalid',
      'mfa_enrollment_required',
      'operation_running',
      'service_installed',
      'service_not_installed',
      'drift_report_only',
      'upgrade_incompatible',
      'rollback_refused',
      'network_error',
      'bad_response',
      'bridge_error',
    ];
    expect(codes.filter((c) => !isMessageKey(`error.${c}`) || !isMessageKey(`error.${c}.hint`))).toEqual([]);
  });

  it('explain every registration failure and what to do', () => {
    const codes = [
      'kubeconfig_invalid',
      'kubeconfig_no_token',
      'api_unreachable',
      'tls_untrusted',
      'token_refused',
      'permission_missing',
      'api_version_unsupported',
      'api_error',
      'not_registered',
    ];
    expect(codes.filter((c) => !isMessageKey(`error.${c}`) || !isMessageKey(`error.${c}.hint`))).toEqual([]);
  });

  it('explain every rejection code of a command and what to do', () => {
    const codes = [
      'malformed',
      'key_unknown',
      'signature_invalid',
      'type_mismatch',
      'target_mismatch',
      'tenant_mismatch',
      'not_yet_valid',
      'expired',
      'nonce_replayed',
      'manager_unreachable',
      'profile_blocked',
      'desired_state_invalid',
      'op_unknown',
      'execution_failed',
    ];
    expect(codes.filter((c) => !isMessageKey(`command.code.${c}`) || !isMessageKey(`command.code.${c}.hint`))).toEqual([]);
    for (const s of ['queued', 'delivered', 'succeeded', 'failed', 'rejected']) expect(isMessageKey(`command.state.${s}`)).toBe(true);
    for (const op of ['managedcomponent.apply', 'managedcomponent.delete', 'inventory.report'])
      expect(isMessageKey(`command.op.${op}`)).toBe(true);
  });

  it('name every failure of the offline report check', () => {
    const codes = [
      'malformed',
      'key_unknown',
      'signature_invalid',
      'type_mismatch',
      'target_mismatch',
      'tenant_mismatch',
      'not_yet_valid',
      'expired',
      'nonce_replayed',
      'pem_invalid',
    ];
    expect(codes.filter((c) => !isMessageKey(`report.check.${c}`))).toEqual([]);
  });

  it('French follows French typography', () => {
    const problems: string[] = [];
    for (const [key, value] of Object.entries(fr)) {
      if (/'/.test(value)) problems.push(`${key}: straight apostrophe`);
      if (/\.\.\./.test(value)) problems.push(`${key}: three dots instead of …`);
      if (/(?:^|[^\u202f])[;!?]/.test(value)) problems.push(`${key}: ; ! ? need a narrow no-break space before`);
      if (/[^\u00a0\u202f]:/.test(value)) problems.push(`${key}: “:” needs a no-break space before`);
      if (/«[^\u202f\u00a0]/.test(value) || /[^\u202f\u00a0]»/.test(value)) problems.push(`${key}: « » need no-break spaces inside`);
      if ((value.match(/«/g) ?? []).length !== (value.match(/»/g) ?? []).length) problems.push(`${key}: unbalanced « »`);
      if (/[“”"]/.test(value)) problems.push(`${key}: English quotes`);
    }
    expect(problems).toEqual([]);
  });

  it('English uses no French guillemets or French spacing', () => {
    const problems = Object.entries(en).filter(([, v]) => /[«»\u202f]/.test(v) || / [:;!?]/.test(v));
    expect(problems).toEqual([]);
  });

  it('the French UI is actually French', () => {
    const same = enKeys.filter((k) => en[k as keyof typeof en] === fr[k as keyof typeof fr]);
    // Names and words that are the same in both languages.
    expect(same.sort()).toEqual(
      [
        'app.name',
        // Certificates: words French shares.
        'certificates.cluster',
        'certificates.kind.console',
        'certificates.kind.service',
        'clusters.count.one',
        'clusters.count.other',
        'clusters.create.description',
        'clusters.details.description',
        'clusters.details.title',
        'clusters.table.label',
        'clusters.title',
        'error.code',
        'mirrorScreen.col.architectures',
        'mirrorScreen.col.service',
        'mirrorScreen.col.version',
        'nav.audit',
        'nav.clusters',
        'settings.about.api',
        'settings.about.mode',
        'settings.about.transport',
        'settings.about.transport.http',
        'settings.language.en',
        'settings.language.fr',
        // The component sheet: words French shares.
        'sheet.audit.col.action',
        'sheet.config.version',
        'sheet.instances.col.instance',
        'sheet.instances.col.pid',
        'sheet.security.cert.endpoint',
        'sheet.security.col.port',
        'sheet.security.col.tls',
        'sheet.tab.audit',
        'sheet.tab.configuration',
        'sheet.tab.instances',
        'sheet.tab.support',
        // Hosts: a product name, and words French shares.
        'clusters.kind.kubernetes',
        // Backups, drift, support and upgrades of services on hosts: names and words French shares.
        'cluster.tab.support',
        'drift.col.actions',
        'drift.col.service',
        'drift.mode',
        'serviceBackups.col.actions',
        'serviceBackups.col.service',
        'serviceBackups.col.sha256',
        'serviceBackups.col.version',
        'support.col.archive',
        'support.kind.config',
        'upgrade.service',
        'hosts.col.actions',
        'hosts.facts.arch',
        'hosts.facts.systemd',
        // The operators' console: words French shares (action, cluster, agent, import, version, verdict), product
        // names and file names.
        'audit.action',
        'audit.cluster',
        'audit.col.action',
        'audit.col.cluster',
        'cluster.tab.agent',
        'cluster.tab.import',
        'command.deliveredValue',
        'commands.filter.cluster',
        'components.col.actions',
        'components.field.version',
        'components.kind.opa',
        'palette.group.actions',
        'palette.group.clusters',
        'reports.col.actions',
        'reports.col.cluster',
        'reports.col.verdict',
        'reports.list.cluster',
        // The Reports buttons' short labels: a file format and a language code (the long wording is their title).
        'reports.html.en',
        'reports.html.fr',
        'reports.json',
        'reports.open.pickKey',
        'reports.run.cluster',
        // The Services tab: its name and the service and version columns are French words too.
        'cluster.tab.services',
        'services.col.service',
        'services.col.version',
        // Service, cluster, code, port, transport and actions are French words too.
        'approvals.col.cluster',
        'backups.col.name',
        'mfa.code',
        'syslog.port',
        'syslog.transport',
        'users.col.actions',
      ].sort(),
    );
  });
});

describe('t()', () => {
  it('interpolates and formats numbers in the locale', () => {
    expect(translate('en', 'clusters.showing', { shown: 1234, total: 20000 })).toBe('1,234 of 20,000 shown');
    expect(translate('fr', 'clusters.showing', { shown: 1234, total: 20000 })).toBe('1\u202f234 affichés sur 20\u202f000');
    expect(translate('fr', 'clusters.noMatch.title', { filter: 'edge' })).toBe('Aucun cluster ne correspond à «\u202fedge\u202f»');
    const t = makeTranslator('fr');
    expect(t('nav.settings')).toBe('Paramètres');
  });

  it('picks plural forms with the rules of each language', () => {
    expect(translatePlural('en', 'clusters.count', 0)).toBe('0 clusters');
    expect(translatePlural('en', 'clusters.count', 1)).toBe('1 cluster');
    expect(translatePlural('fr', 'clusters.count', 0)).toBe('0 cluster');
    expect(translatePlural('fr', 'clusters.count', 2)).toBe('2 clusters');
  });

  it('formats dates in the locale', () => {
    const iso = '2025-12-02T14:05:00Z';
    expect(formatDateTime('en', iso)).not.toBe(formatDateTime('fr', iso));
    expect(formatDateTime('fr', iso)).toMatch(/déc\.? 2025/);
    expect(formatDateTime('en', iso)).toMatch(/Dec 2025/);
    expect(formatDateTime('en', 'not a date')).toBe('not a date');
    expect(formatNumber('fr', 1234.5)).toBe('1\u202f234,5');
  });

  it('is typed: unknown keys and missing params do not compile', () => {
    const t = makeTranslator('en');
    // @ts-expect-error unknown key
    t('nav.nope');
    // @ts-expect-error missing params
    t('clusters.showing');
    // @ts-expect-error wrong param name
    t('clusters.showing', { shown: 1, all: 2 });
    // @ts-expect-error no params expected
    t('nav.clusters', { x: 1 });
    expect(t('nav.clusters')).toBe('Clusters');
  });
});

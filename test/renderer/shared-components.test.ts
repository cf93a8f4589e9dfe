// The shared pieces the screens are built from render what the screens wrote by hand before: a tab's wrapper,
// title and help (its write left out for those who may not write), an empty list's words from its keys, a form that the
// console checks itself, the approval picker only under a refusal that asks for one, and the endpoint and new
// password fields with the ids, names and attributes the e2e specs and password managers rely on.
import { createElement, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../renderer/src/api/client';
import { Button } from '../../renderer/src/components/Button';
import { EndpointFields } from '../../renderer/src/components/EndpointFields';
import { Form } from '../../renderer/src/components/Form';
import { ListView } from '../../renderer/src/components/ListView';
import { NewPasswordFields } from '../../renderer/src/components/NewPasswordFields';
import { TabPanel } from '../../renderer/src/components/TabPanel';
import { ApprovalRetry } from '../../renderer/src/features/approvals/RetryWithApproval';

const html = (element: ReactElement): string => renderToStaticMarkup(element);

describe('a tab panel', () => {
  const tab = { name: 'drift', icon: 'alert', title: 'drift.title', help: 'drift.help' } as const;
  const write = {
    text: ['drift.scanNow', 'drift.scanning'],
    icon: 'refresh',
    testId: 'drift-scan-now',
    busy: false,
    onClick: () => {},
  } as const;

  it('is the tab wrapper with its titled panel, the help line, the content, then what comes after', () => {
    const out = html(
      createElement(
        TabPanel,
        { tab, onReload: () => {}, after: createElement('p', { id: 'after' }) },
        createElement('p', { id: 'inside' }),
      ),
    );
    expect(out).toMatch(/^<div class="drift-tab" data-testid="cluster-drift"><section class="panel" aria-labelledby="drift-title">/);
    expect(out).toContain('<h2 id="drift-title" class="panel-title">');
    expect(out).toContain('Refresh');
    expect(out.indexOf('<p class="help">')).toBeLessThan(out.indexOf('id="inside"'));
    expect(out.indexOf('</section>')).toBeLessThan(out.indexOf('id="after"'));
    expect(html(createElement(TabPanel, { tab: { ...tab, testId: 'cluster-backups' }, onReload: () => {} }))).toContain(
      'data-testid="cluster-backups"',
    );
  });

  // A static render sees the session as it starts (no one signed in): the write is left out, the reload stays.
  it('leaves its write out for someone who may not write', () => {
    const out = html(createElement(TabPanel, { tab, onReload: () => {}, write }));
    expect(out).not.toContain('drift-scan-now');
    expect(out).toContain('aria-label="Refresh"');
  });
});

describe('a list view', () => {
  const empty = { icon: 'check', title: 'drift.empty.title', body: 'drift.empty.body', testId: 'drift-empty' } as const;
  const rows = createElement('table', { id: 'rows' });

  it('says its empty words once the manager answered with nothing, and shows its rows when there are some', () => {
    const none = html(createElement(ListView, { status: 'ready', count: 0, empty, children: rows }));
    expect(none).toContain('data-testid="drift-empty"');
    expect(none).not.toContain('drift.empty.title');
    expect(none).not.toContain('id="rows"');
    expect(html(createElement(ListView, { status: 'ready', count: 2, empty, children: rows }))).toBe('<table id="rows"></table>');
    expect(html(createElement(ListView, { status: 'loading', count: 0, empty, children: rows }))).toContain('role="status"');
  });
});

describe('a form and a button', () => {
  it('leave browser validation out and say what they are', () => {
    const out = html(createElement(Form, { onSubmit: () => {}, labelledBy: 't', testId: 'f', children: 'x' }));
    expect(out).toBe('<form class="form" noValidate="" aria-labelledby="t" data-testid="f">x</form>');
    const button = html(
      createElement(Button, { look: 'btn-sm', icon: 'edit', onClick: () => {}, label: 'Edit a', testId: 'b', children: 'Edit' }),
    );
    expect(button).toMatch(/^<button type="button" class="btn btn-sm" aria-label="Edit a" data-testid="b"><svg[^]*<\/svg>Edit<\/button>$/);
  });
});

describe('the approval picker under a refusal', () => {
  const act = { clusterId: null, action: 'create_admin', service: 'carol' };
  const render = (error: ApiError | null): string =>
    html(createElement(ApprovalRetry, { write: { error, pending: false }, act, idSuffix: 'x', onRetry: () => {} }));

  it('is there when the refusal asks for an approval, and nothing otherwise', () => {
    expect(render(new ApiError({ code: 'approval_required', status: 403, message: 'x' }))).toContain('data-testid="retry-with-approval-x"');
    expect(render(new ApiError({ code: 'forbidden', status: 403, message: 'x' }))).toBe('');
    expect(render(null)).toBe('');
  });
});

describe('shared fields', () => {
  it('name the endpoint controls by the prefix, mark the refused one, and say its refusal', () => {
    const out = html(
      createElement(EndpointFields, {
        idPrefix: 'endpoint',
        values: { fqdn: 'a.example', address: '' },
        onChange: () => {},
        errorOn: (f) => (f === 'address' ? 'not an address' : null),
        invalid: (f) => f === 'fqdn',
      }),
    );
    expect(out).toContain('id="endpoint-fqdn"');
    expect(out).toMatch(/id="endpoint-fqdn"[^>]*aria-invalid="true"/);
    expect(out).toContain('data-testid="endpoint-address-error"');
    expect(out).toContain('placeholder="10.0.0.10"');
  });

  it('make a new password and its confirmation inputs a password manager knows, with the form’s own attributes', () => {
    const out = html(
      createElement(NewPasswordFields, {
        idPrefix: 'setup',
        values: { password: '', confirm: '' },
        onChange: () => {},
        inputs: { password: { name: 'new-password' }, confirm: { name: 'confirm-password' } },
      }),
    );
    expect(out).toMatch(/id="setup-password"[^>]*type="password"[^>]*autoComplete="new-password"[^>]*name="new-password"/);
    expect(out).toMatch(/id="setup-confirm"[^>]*name="confirm-password"/);
    expect(out).toContain('id="setup-password-help"');
  });
});

// Removing a host from the Hosts tab: asked first, then sent; where the cluster's profile wants four eyes the
// refusal offers the requester's approvals of deleting that very host, and the act is sent again with the one picked.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { HostView } from '../../preload/api';
import { ApiError } from '../../renderer/src/api/client';
import { makeTranslator } from '../../renderer/src/i18n';
import { createHostsStore, type HostsState } from '../../renderer/src/features/hosts/store';
import { HostRemoval } from '../../renderer/src/features/hosts/HostsTab';
import { FakeApi, apiError, makeClient } from './support/fake-api';

const host: HostView = {
  id: 'h-1',
  cluster_id: 'c-1',
  name: 'node-1',
  address: '10.0.0.1',
  facts: null,
  facts_at: null,
  managed: null,
  created_at: '2026-01-01T00:00:00Z',
  state: 'connected',
  agent: { connected: true, last_seen: null, offline_since: null, agent_version: null, certificate_serial: null },
};

const render = (removing: HostsState['removing'], confirming: boolean): string =>
  renderToStaticMarkup(createElement(HostRemoval, { host, removing, confirming, onConfirming: () => {}, onRemove: () => {} }));

const idle = { pending: false, error: null, hostId: null };

describe('removing a host', () => {
  it('is refused for want of an approval, kept on that host, then sent with the approval picked and the list reloaded', async () => {
    let items = [host];
    const api = new FakeApi()
      .on('GET /api/v1/clusters/c-1/hosts', () => ({ status: 200, body: { items } }))
      .on('DELETE /api/v1/hosts/h-1', apiError(403, 'approval_required'))
      .on('DELETE /api/v1/hosts/h-1?approval_id=ap-9', () => {
        items = [];
        return { status: 204, body: null };
      });
    const store = createHostsStore({ client: makeClient(api) });
    await store.getState().open('c-1');
    expect(await store.getState().remove('h-1')).toBe(false);
    expect(store.getState().removing).toMatchObject({ hostId: 'h-1', error: { code: 'approval_required' } });
    expect(store.getState().items).toHaveLength(1);
    expect(await store.getState().remove('h-1', 'ap-9')).toBe(true);
    expect(api.callsTo('DELETE', '/api/v1/hosts/h-1?approval_id=ap-9')).toHaveLength(1);
    expect(store.getState()).toMatchObject({ items: [], removing: { pending: false, error: null, hostId: null } });
  });

  it('asks first: the button alone, then the question naming the host with Remove and Cancel', () => {
    const closed = render(idle, false);
    expect(closed).toContain('data-testid="host-remove-node-1"');
    expect(closed).toContain('Remove host');
    expect(closed).not.toContain('host-remove-confirm-node-1');
    const asking = render(idle, true);
    expect(asking).toContain('data-testid="host-remove-confirm-node-1"');
    expect(asking).toContain('Remove the host “node-1”?');
    expect(asking).toContain('>Remove<');
    expect(asking).toContain('Cancel');
  });

  it('after approval_required offers the approval picker of deleting that host and the request form', () => {
    const refusal = new ApiError({ code: 'approval_required', status: 403, message: 'needs an approval' });
    const html = render({ pending: false, error: refusal, hostId: 'h-1' }, false);
    expect(html).toContain('data-testid="host-remove-error-node-1"');
    expect(html).toContain('data-testid="retry-with-approval-remove-h-1"');
    expect(html).toContain('data-testid="request-approval"');
    expect(render({ pending: false, error: refusal, hostId: 'h-2' }, false)).not.toContain('retry-with-approval');
    const other = new ApiError({ code: 'not_found', status: 404, message: 'gone' });
    expect(render({ pending: false, error: other, hostId: 'h-1' }, false)).not.toContain('retry-with-approval');
  });

  it('is worded in English and French', () => {
    expect(makeTranslator('en')('hosts.action.remove')).toBe('Remove host');
    expect(makeTranslator('fr')('hosts.action.remove')).toBe('Retirer l’hôte');
    expect(makeTranslator('fr')('hosts.remove.confirm', { name: 'node-1' })).toContain('node-1');
  });
});

import { describe, expect, it } from 'vitest';
import { UI_STORAGE_KEY, createUiStore, detectLocale, resolveTheme } from '../../renderer/src/stores/ui';
import { memoryStorage } from '../../renderer/src/stores/storage';
import { createRouterStore, screenFromHash } from '../../renderer/src/stores/router';

describe('ui store', () => {
  it('detects the workstation language until the operator picks one', () => {
    expect(detectLocale(['fr-FR', 'en'])).toBe('fr');
    expect(detectLocale(['de-DE', 'en-GB'])).toBe('en');
    expect(detectLocale(['de'])).toBe('en');
    expect(detectLocale(undefined)).toBe('en');
    expect(createUiStore({ storage: memoryStorage(), languages: ['fr-CA'] }).getState().locale).toBe('fr');
  });

  it('persists locale and theme, and restores them', () => {
    const storage = memoryStorage();
    const a = createUiStore({ storage, languages: ['en'] });
    expect(a.getState().theme).toBe('system');
    a.getState().setLocale('fr');
    a.getState().setTheme('dark');
    expect(JSON.parse(storage.dump()[UI_STORAGE_KEY] ?? '{}')).toMatchObject({ state: { locale: 'fr', theme: 'dark' } });
    const b = createUiStore({ storage, languages: ['en'] });
    expect(b.getState()).toMatchObject({ locale: 'fr', theme: 'dark' });
  });

  it('ignores values edited by hand in storage', () => {
    const storage = memoryStorage({ [UI_STORAGE_KEY]: JSON.stringify({ state: { locale: 'xx', theme: 'neon' }, version: 1 }) });
    expect(createUiStore({ storage, languages: ['fr'] }).getState()).toMatchObject({ locale: 'fr', theme: 'system' });
  });

  it('refuses unknown values', () => {
    const s = createUiStore({ storage: memoryStorage() });
    s.getState().setLocale('de' as never);
    s.getState().setTheme('neon' as never);
    expect(s.getState()).toMatchObject({ locale: 'en', theme: 'system' });
  });

  it('resolves the theme', () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
    expect(resolveTheme('dark', false)).toBe('dark');
  });
});

describe('router store', () => {
  it('reads screens from hash routes and ignores launch links', () => {
    expect(screenFromHash('#/clusters')).toBe('clusters');
    expect(screenFromHash('#/settings/')).toBe('settings');
    expect(screenFromHash('#/nope')).toBeNull();
    expect(screenFromHash('#ticket=abc')).toBeNull();
    expect(screenFromHash('#main')).toBeNull();
  });

  it('navigates and follows the address bar', () => {
    const written: string[] = [];
    const r = createRouterStore({ initialHash: '#/audit', writeHash: (h) => written.push(h) });
    expect(r.getState().screen).toBe('audit');
    r.getState().navigate('settings');
    expect(r.getState().screen).toBe('settings');
    expect(written).toEqual(['#/settings']);
    r.getState().syncFromHash('#/reports');
    expect(r.getState().screen).toBe('reports');
    r.getState().syncFromHash('#setup=x');
    expect(r.getState().screen).toBe('reports');
    expect(createRouterStore({ initialHash: '#ticket=x' }).getState().screen).toBe('clusters');
  });
});

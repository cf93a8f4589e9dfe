// The virtualised list the checks and certificates screens share: a labelled list box whose rows in view are
// listitems at their offsets, each rendered by the screen.
import { createElement, createRef } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { VirtualList } from '../../renderer/src/components/VirtualList';

// The two calls the list makes of a virtualizer, as one scrolled to the second row would answer them.
const virtualizer = {
  getTotalSize: () => 120,
  getVirtualItems: () => [
    { key: 'b', index: 1, start: 40 },
    { key: 'c', index: 2, start: 80 },
    { key: 'gone', index: 7, start: 280 },
  ],
} as unknown as Parameters<typeof VirtualList<string>>[0]['virtualizer'];

describe('a virtual list', () => {
  it('renders the rows in view as listitems at their offsets, in a labelled list with its classes, and skips a row no longer there', () => {
    const out = renderToStaticMarkup(
      createElement(VirtualList<string>, {
        rows: ['a', 'b', 'c'],
        virtualizer,
        scrollRef: createRef<HTMLDivElement>(),
        rowHeight: 40,
        className: 'certificates-list',
        label: 'Certificates',
        testId: 'certificates-list',
        renderRow: (row) => createElement('span', { className: 'row' }, row),
      }),
    );
    expect(out).toContain('class="virtual-list certificates-list"');
    expect(out).toContain('role="list" aria-label="Certificates" data-testid="certificates-list"');
    expect(out).toContain('height:120px');
    const items = [...out.matchAll(/role="listitem" style="([^"]*)"><span class="row">(\w+)<\/span>/g)];
    expect(items.map((m) => m[2])).toEqual(['b', 'c']);
    expect(items[0]?.[1]).toContain('translateY(40px)');
    expect(items[1]?.[1]).toContain('translateY(80px)');
    expect(items[0]?.[1]).toContain('height:40px');
  });

  it('has only the virtual-list class when the screen adds none', () => {
    const out = renderToStaticMarkup(
      createElement(VirtualList<string>, {
        rows: [],
        virtualizer,
        scrollRef: createRef<HTMLDivElement>(),
        rowHeight: 40,
        label: 'Checks',
        testId: 'checks-list',
        renderRow: (row) => createElement('span', null, row),
      }),
    );
    expect(out).toContain('class="virtual-list"');
    expect(out).not.toContain('listitem');
  });
});

// The labelled checkbox the certificates filter and the logs' follow share: checked as told, its words in the label.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CheckOption } from '../../renderer/src/components/CheckOption';

const html = (checked: boolean): string =>
  renderToStaticMarkup(
    createElement(CheckOption, {
      checked,
      onChange: () => {},
      className: 'check-inline',
      testId: 'expiring-only',
      children: 'Expiring only',
    }),
  );

describe('a check option', () => {
  it('is a checkbox inside its label with the words after it, checked when told', () => {
    expect(html(true)).toBe(
      '<label class="check-inline"><input type="checkbox" data-testid="expiring-only" checked=""/>Expiring only</label>',
    );
  });

  it('is unchecked when told', () => {
    expect(html(false)).not.toContain('checked');
  });
});

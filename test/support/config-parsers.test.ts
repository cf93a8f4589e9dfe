// The parsers' helpers: a missing binary fails its suite under CI and skips it elsewhere, and the Exec line
// splitter follows systemd.service's examples.
import { expect, test } from 'vitest';
import { binaryAvailable, systemdExecArgv } from './config-parsers';
import { suitePlan } from './needs';

test('a missing binary fails the suite under CI and skips it elsewhere', () => {
  const missing = binaryAvailable('navin-no-such-binary');
  expect(missing).toEqual({ ok: false, reason: 'navin-no-such-binary is not installed' });
  expect(suitePlan([missing], { CI: 'true' })).toEqual({ run: false, fail: 'navin-no-such-binary is not installed' });
  expect(suitePlan([missing], {})).toEqual({ run: false, skip: 'navin-no-such-binary is not installed' });
  expect(binaryAvailable('node')).toEqual({ ok: true });
});

test('the Exec line splitter reads quotes, C escapes, %% and $$ as systemd.service says', () => {
  expect(systemdExecArgv(`/bin/echo "one" 'two  three' "a\\"b" \\x41\\u00e9`)).toEqual(['/bin/echo', 'one', 'two  three', 'a"b', 'Aé']);
  expect(systemdExecArgv('/bin/echo "100%%" "$$HOME" "\\xe2\\x80\\xa8"')).toEqual(['/bin/echo', '100%', '$HOME', '\u2028']);
  expect(() => systemdExecArgv('/bin/echo "open')).toThrow(/unbalanced/);
  expect(() => systemdExecArgv('/bin/echo "\\q"')).toThrow(/escape/);
});

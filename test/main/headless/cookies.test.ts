// The session cookie as read from a request header: a malformed percent-escape is no session, not an error.
import { expect, test } from 'vitest';
import { SESSION_COOKIE, readCookie } from '../../../main/headless/cookies';

test.each([
  ['navin_session=abc%2Bdef', 'abc+def'],
  ['other=1; navin_session=tok', 'tok'],
  ['navin_session=%', undefined],
  ['navin_session=%E0%A4%A', undefined],
  ['other=%', undefined],
])('%s reads as %s', (header, value) => {
  expect(readCookie(header, SESSION_COOKIE)).toBe(value);
});

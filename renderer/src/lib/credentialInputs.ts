// The attributes of the name, password and one-time code inputs, as browsers and password managers recognise them.
export const USERNAME_INPUT = { name: 'username', autoComplete: 'username', autoCapitalize: 'none', spellCheck: false } as const;
export const NEW_PASSWORD_INPUT = { type: 'password', autoComplete: 'new-password' } as const;
export const CURRENT_PASSWORD_INPUT = { name: 'password', type: 'password', autoComplete: 'current-password' } as const;
/** The code of an authenticator app, or a recovery code: typed exactly, in a monospace font. */
export const ONE_TIME_CODE_INPUT = {
  name: 'one-time-code',
  className: 'mono',
  autoComplete: 'one-time-code',
  autoCapitalize: 'none',
  spellCheck: false,
} as const;

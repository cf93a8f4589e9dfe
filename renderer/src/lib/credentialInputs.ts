// The attributes of the name and new-password inputs, as browsers and password managers recognise them.
export const USERNAME_INPUT = { name: 'username', autoComplete: 'username', autoCapitalize: 'none', spellCheck: false } as const;
export const NEW_PASSWORD_INPUT = { type: 'password', autoComplete: 'new-password' } as const;

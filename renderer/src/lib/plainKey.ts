// A message without placeholders: what a shared component is given to translate itself (a button's words, an
// empty list's title), so a screen can describe it in one constant.
import type { MessageKey, ParamsOf } from '../i18n';

export type PlainKey = { [K in MessageKey]: [ParamsOf<K>] extends [never] ? K : never }[MessageKey];

// A setting's value written as the file it lands in reads it: a whole YAML scalar, a whole NATS conf value, whole
// systemd ExecStart= arguments, a JSON value. Never substituted as text: a value is one token of its file
// whatever it holds (quotes, line breaks of any kind, `;`, `%`, `$`), so it cannot end its line or its string
// and add a key. Everything outside printable ASCII is escaped: the services' parsers differ on what counts as
// a line break (go-yaml v2 breaks lines on U+0085, U+2028 and U+2029 as YAML 1.1 says).
import { listItems, sizeBytes, type SettingDecl, type SettingValue } from './setting-types';

export const FILE_FORMATS = ['yaml', 'nats', 'json', 'systemd'] as const;
export type FileFormat = (typeof FILE_FORMATS)[number];

const PRINTABLE_ASCII = /^[\x20-\x7e]$/;
const hex = (n: number, width: number): string => n.toString(16).toUpperCase().padStart(width, '0');

function refuseUnencodable(s: string): void {
  // NUL ends a C string in every one of these parsers, and a lone surrogate has no UTF-8 form.
  if (/\0|\p{Cs}/u.test(s)) throw new Error('a setting holds NUL or a lone surrogate, which no config file can carry');
}

/** A YAML double-quoted scalar: go-yaml v2 and YAML 1.2 parsers read \u and \U escapes alike. */
export function yamlString(s: string): string {
  refuseUnencodable(s);
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (PRINTABLE_ASCII.test(ch)) out += ch;
    else out += cp > 0xffff ? `\\U${hex(cp, 8)}` : `\\u${hex(cp, 4)}`;
  }
  return `${out}"`;
}

/** A NATS conf quoted string: its lexer knows \xHH (one byte), \t, \n, \r, \" and \\; bytes make the UTF-8 back. */
export function natsString(s: string): string {
  refuseUnencodable(s);
  let out = '"';
  // `$` too: outside quotes it names a variable, and a byte escape reads the same inside them.
  for (const b of Buffer.from(s, 'utf8'))
    out += /[A-Za-z0-9 ._:/@+=,-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `\\x${hex(b, 2)}`;
  return `${out}"`;
}

/**
 * One argument of a systemd Exec line (systemd.service "Command lines", systemd.syntax): double-quoted with C
 * escapes (everything outside printable ASCII as its UTF-8 bytes), `%` doubled (specifiers) and `$` doubled
 * (environment expansion); a quoted word is never the `;` that separates commands.
 */
export function systemdArgument(s: string): string {
  refuseUnencodable(s);
  let out = '"';
  for (const ch of s) {
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '%') out += '%%';
    else if (ch === '$') out += '$$';
    else if (PRINTABLE_ASCII.test(ch)) out += ch;
    // Bytes, not \U: systemd refuses a \U escape of a noncharacter (U+10FFFF) but takes its UTF-8 bytes.
    else for (const b of Buffer.from(ch, 'utf8')) out += `\\x${hex(b, 2)}`;
  }
  return `${out}"`;
}

/** A JSON string with everything outside printable ASCII escaped (U+2028 and U+2029 included). */
export function jsonString(s: string): string {
  refuseUnencodable(s);
  return JSON.stringify(s).replace(/[^\x20-\x7e]/g, (c) => `\\u${hex(c.charCodeAt(0), 4)}`);
}

const STRING_ENCODERS: Record<FileFormat, (s: string) => string> = {
  yaml: yamlString,
  nats: natsString,
  json: jsonString,
  systemd: systemdArgument,
};

/** A setting's value as its file writes it: numbers and booleans plain, sizes in bytes, lists as lists. */
export function encodeSetting(format: FileFormat, decl: SettingDecl, value: SettingValue): string {
  const str = STRING_ENCODERS[format];
  if (typeof value === 'boolean') return String(value);
  if (decl.type === 'size') return String(sizeBytes(value as string | number));
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new Error('a number setting is a safe integer');
    return String(value);
  }
  if (decl.type === 'list' || decl.type === 'host_list') {
    const items = listItems(decl, value).map(str);
    // Arguments of a command line stand side by side; the other formats write a list.
    return format === 'systemd' ? items.join(' ') : `[${items.join(', ')}]`;
  }
  return str(value);
}

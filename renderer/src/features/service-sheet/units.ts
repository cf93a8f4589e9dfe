// Sizes and durations of the sheet in the operator's language (French writes octets: o, Kio, Mio…).
import type { Translator } from '../../i18n';

const SIZE_KEYS = ['sheet.size.b', 'sheet.size.kib', 'sheet.size.mib', 'sheet.size.gib', 'sheet.size.tib'] as const;

export function formatBytes(t: Translator, number: (v: number) => string, bytes: number): string {
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < SIZE_KEYS.length - 1) {
    v /= 1024;
    i++;
  }
  // Two decimals under 10 (1.14 GiB, not 1.1 twice on an axis), one above.
  return t(SIZE_KEYS[i]!, { n: number(v < 10 ? Math.round(v * 100) / 100 : Math.round(v * 10) / 10) });
}

export function formatDuration(t: Translator, seconds: number): string {
  if (seconds < 60) return t('sheet.duration.s', { n: seconds });
  if (seconds < 3600) return t('sheet.duration.m', { n: Math.floor(seconds / 60) });
  if (seconds < 86_400) return t('sheet.duration.h', { h: Math.floor(seconds / 3600), m: Math.floor((seconds % 3600) / 60) });
  return t('sheet.duration.d', { d: Math.floor(seconds / 86_400), h: Math.floor((seconds % 86_400) / 3600) });
}

// Kubernetes quantities made readable: memory in GiB or MiB (e.g. 8025424Ki → 7.7 GiB); the exact value stays
// available as a tooltip.

const BINARY: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const DECIMAL: Record<string, number> = { '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };

/** Bytes of a memory quantity, or null when it is not one. */
export function quantityBytes(q: string): number | null {
  const m = /^([0-9]+(?:\.[0-9]+)?)(Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E)?$/.exec(q.trim());
  if (!m || m[1] === undefined) return null;
  const unit = m[2] ?? '';
  const factor = BINARY[unit] ?? DECIMAL[unit];
  return factor === undefined ? null : Number(m[1]) * factor;
}

/** `{value, unit}` of a memory quantity in GiB (from 1 GiB) or MiB, one decimal; null when not a quantity. */
export function readableMemory(q: string): { value: number; unit: 'GiB' | 'MiB' } | null {
  const bytes = quantityBytes(q);
  if (bytes === null) return null;
  if (bytes >= 2 ** 30) return { value: Math.round((bytes / 2 ** 30) * 10) / 10, unit: 'GiB' };
  return { value: Math.round((bytes / 2 ** 20) * 10) / 10, unit: 'MiB' };
}

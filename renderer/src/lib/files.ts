// Getting texts out of and into the console without Node: save as a file (a download the browser or the
// desktop window asks where to put), copy to the clipboard, and read a file the operator picked.

/** Saves `text` as a file named `name` (a download: the operator chooses where). */
export function saveText(name: string, text: string, type = 'text/plain'): void {
  const blob = new Blob([text], { type: `${type};charset=utf-8` });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Copies `text` to the clipboard; resolves false when the workstation refuses. */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall back below (clipboard permission refused, or not a secure context)
  }
  try {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  } catch {
    return false;
  }
}

/** Reads a picked file as UTF-8 text (null when it is larger than maxBytes). */
export async function readTextFile(file: File, maxBytes = 1 << 20): Promise<string | null> {
  if (file.size > maxBytes) return null;
  return file.text();
}

export const MEDIA = {
  yaml: 'application/yaml',
  json: 'application/json',
  pem: 'application/x-pem-file',
  html: 'text/html',
  text: 'text/plain',
} as const;

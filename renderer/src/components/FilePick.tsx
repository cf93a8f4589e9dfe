// Picking a local file to read as text (kubeconfig, report JSON, manager.pem): a real button, keyboard usable,
// over a hidden file input.
import { useId, useRef, type ReactElement } from 'react';
import { readTextFile } from '../lib/files';
import { Icon } from './Icon';

export function FilePick({
  label,
  accept,
  onFile,
  onTooLarge,
  testId,
  maxBytes,
}: {
  label: string;
  accept?: string;
  onFile: (file: { name: string; text: string }) => void;
  onTooLarge?: (name: string) => void;
  testId?: string;
  maxBytes?: number;
}): ReactElement {
  const inputRef = useRef<HTMLInputElement>(null);
  const id = useId();
  return (
    <>
      <button type="button" className="btn btn-sm" onClick={() => inputRef.current?.click()} aria-controls={id}>
        <Icon name="upload" />
        {label}
      </button>
      <input
        ref={inputRef}
        id={id}
        type="file"
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        accept={accept}
        data-testid={testId}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (!file) return;
          void readTextFile(file, maxBytes).then((text) => {
            if (text === null) onTooLarge?.(file.name);
            else onFile({ name: file.name, text });
          });
        }}
      />
    </>
  );
}

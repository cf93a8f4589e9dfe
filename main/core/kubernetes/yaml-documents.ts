// Multi-document YAML as kubectl apply reads it.
import { stringify } from 'yaml';

export function yamlDocuments(objects: readonly object[], header?: string): string {
  const body = objects.map((o) => stringify(o, { lineWidth: 0 }).trimEnd()).join('\n---\n');
  return `${
    header
      ? `${header
          .split('\n')
          .map((l) => `# ${l}`)
          .join('\n')}\n`
      : ''
  }${body}\n`;
}

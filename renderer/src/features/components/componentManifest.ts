// The ManagedComponent manifest the components editor starts from (or shows for an existing component).
import type { ManagedComponentSpec } from '../../api/types';

export const MANAGED_COMPONENT_API_VERSION = 'platform.navin.ai/v1alpha1';
export const MANAGED_COMPONENT_KIND = 'ManagedComponent';

/** The manifest the editor starts from (or shows for an existing component). */
export function componentManifest(name: string, spec: ManagedComponentSpec, namespace: string): string {
  const lines = [
    `apiVersion: ${MANAGED_COMPONENT_API_VERSION}`,
    `kind: ${MANAGED_COMPONENT_KIND}`,
    'metadata:',
    `  name: ${name}`,
    `  namespace: ${namespace}`,
    'spec:',
  ];
  lines.push(`  component: ${spec.component}`, `  version: ${JSON.stringify(spec.version)}`);
  if (spec.replicas !== undefined) lines.push(`  replicas: ${spec.replicas}`);
  if (spec.artifacts && spec.artifacts.length > 0) {
    lines.push('  artifacts:');
    for (const a of spec.artifacts) lines.push(`    - name: ${a.name}`, `      image: ${a.image}`);
  }
  if (spec.resources && (spec.resources.cpu || spec.resources.memory)) {
    lines.push('  resources:');
    if (spec.resources.cpu) lines.push(`    cpu: ${JSON.stringify(spec.resources.cpu)}`);
    if (spec.resources.memory) lines.push(`    memory: ${JSON.stringify(spec.resources.memory)}`);
  }
  if (spec.config && Object.keys(spec.config).length > 0) lines.push(`  config: ${JSON.stringify(spec.config)}`);
  return `${lines.join('\n')}\n`;
}

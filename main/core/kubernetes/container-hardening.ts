// The pod and container settings every workload of ours runs with (the restricted Pod Security profile, its own
// service account, bounded resources), so the agent and the operator cannot drift apart on them.

/** The start of a pod spec: the workload's service account, non-root, no injected service links. */
export function hardenedPod(serviceAccountName: string): object {
  return {
    serviceAccountName,
    automountServiceAccountToken: true,
    enableServiceLinks: false,
    securityContext: {
      runAsNonRoot: true,
      runAsUser: 65532,
      runAsGroup: 65532,
      // The mounted identity files are 0440: readable through this group.
      fsGroup: 65532,
      seccompProfile: { type: 'RuntimeDefault' },
    },
  };
}

export function hardenedContainer(): { securityContext: object; resources: object } {
  return {
    securityContext: {
      runAsNonRoot: true,
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
      privileged: false,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'RuntimeDefault' },
    },
    resources: { requests: { cpu: '50m', memory: '64Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
  };
}

// Where an agent keeps its client certificate and key across restarts: the node agent's identity folder, the
// cluster agent's identity Secret (its pod mounts it read-only, so a pair kept only in memory would be lost at the
// pod's restart, and the old one is revoked once the new one is seen). The renewer stages before the CSR leaves,
// so a store that cannot keep a pair fails before any certificate is issued, then commits the pair answered.

/** A client certificate and its private key, PEM. */
export interface CertificatePair {
  certPem: string;
  keyPem: string;
}

export interface CertificateStore {
  /** Fails when the store cannot keep a new pair now (a read-only folder, no right on the Secret). */
  stage(keyPem: string): Promise<void>;
  /** Replaces the pair of `previousCertPem` by `next`; throws, the store unchanged, when it holds another one now. */
  commit(previousCertPem: string, next: CertificatePair): Promise<void>;
  /** The pair held now: the one a restart would read. */
  current(): Promise<CertificatePair>;
}

// Debian's etcd (3.4) run by a test as one member whose client port speaks only TLS and demands a client
// certificate (client-transport-security with client-cert-auth), with a certificate of a throwaway service CA.
import { request } from 'node:https';
import { readFileSync, statSync } from 'node:fs';
import { ETCD_BIN } from './etcd';
import { freePorts } from './ports';
import { ServiceProcess, serviceDir } from './service-process';
import { servicePki, writeServicePki, type ServicePkiFiles } from '../service-pki';

export interface TlsEtcdMember {
  /** https://127.0.0.1:<port> */
  clientUrl: string;
  clientPort: number;
  /** The CA, and the member's own certificate and key, which its clients present as etcd's checks do. */
  tls: ServicePkiFiles;
  process: ServiceProcess;
  close(): Promise<void>;
}

/** Whether the member answers /health over TLS with the client certificate, whatever it says. */
function answers(url: string, files: ServicePkiFiles): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/health`,
      {
        ca: readFileSync(files.ca_file),
        cert: readFileSync(files.cert_file),
        key: readFileSync(files.key_file),
        agent: false,
        timeout: 1000,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(true));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}

export async function startTlsEtcd(): Promise<TlsEtcdMember> {
  const dir = serviceDir('navin-etcd-tls-');
  const [clientPort, peerPort] = (await freePorts(2)) as [number, number];
  const clientUrl = `https://127.0.0.1:${clientPort}`;
  // The peer port is not what a client measures, and one member has no peer: it stays plaintext on loopback.
  const peerUrl = `http://127.0.0.1:${peerPort}`;
  const tlsDir = dir.sub('tls');
  const owner = statSync(tlsDir);
  const tls = writeServicePki(tlsDir, 'etcd', servicePki({ service: 'etcd', hostName: 'member-1', addresses: ['127.0.0.1'] }), owner);
  const proc = new ServiceProcess('etcd (TLS)', ETCD_BIN, [
    '--name=m1',
    `--data-dir=${dir.sub('m1')}`,
    `--listen-client-urls=${clientUrl}`,
    `--advertise-client-urls=${clientUrl}`,
    `--listen-peer-urls=${peerUrl}`,
    `--initial-advertise-peer-urls=${peerUrl}`,
    `--initial-cluster=m1=${peerUrl}`,
    `--initial-cluster-token=navin-tls-${process.pid}-${clientPort}`,
    '--initial-cluster-state=new',
    `--cert-file=${tls.cert_file}`,
    `--key-file=${tls.key_file}`,
    `--trusted-ca-file=${tls.ca_file}`,
    '--client-cert-auth',
    '--logger=zap',
    '--log-outputs=stderr',
  ]);
  try {
    await proc.start(() => answers(clientUrl, tls));
  } catch (error) {
    await proc.stop();
    dir.remove();
    throw error;
  }
  return {
    clientUrl,
    clientPort,
    tls,
    process: proc,
    async close() {
      await proc.stop();
      dir.remove();
    },
  };
}

// Debian's etcd (3.4) run by a test on loopback: one member or a cluster of several, each with its own data
// folder and free client and peer ports; a member can be stopped and started again by the test.
import { ServiceProcess, serviceDir } from './service-process';
import { freePorts } from './ports';

export const ETCD_BIN = process.env.NAVIN_ETCD_BIN ?? '/usr/bin/etcd';

export interface EtcdMember {
  name: string;
  clientUrl: string;
  clientPort: number;
  peerUrl: string;
  dataDir: string;
  process: ServiceProcess;
  /** Starts the member (again) and waits until its client port serves /health, whatever it says. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface EtcdCluster {
  members: EtcdMember[];
  endpoints: string[];
  /** The folder holding every member's data folder. */
  dir: string;
  close(): Promise<void>;
}

async function answers(url: string): Promise<boolean> {
  const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(1000) });
  await res.text();
  return true;
}

export async function startEtcd(size = 1): Promise<EtcdCluster> {
  const dir = serviceDir('navin-etcd-');
  const ports = await freePorts(size * 2);
  const token = `navin-test-${process.pid}-${ports[0]}`;
  const specs = Array.from({ length: size }, (_, i) => ({
    name: `m${i + 1}`,
    clientPort: ports[2 * i]!,
    clientUrl: `http://127.0.0.1:${ports[2 * i]}`,
    peerUrl: `http://127.0.0.1:${ports[2 * i + 1]}`,
  }));
  const initialCluster = specs.map((s) => `${s.name}=${s.peerUrl}`).join(',');
  const members: EtcdMember[] = specs.map((s) => {
    const dataDir = dir.sub(s.name);
    const proc = new ServiceProcess(`etcd ${s.name}`, ETCD_BIN, [
      `--name=${s.name}`,
      `--data-dir=${dataDir}`,
      `--listen-client-urls=${s.clientUrl}`,
      `--advertise-client-urls=${s.clientUrl}`,
      `--listen-peer-urls=${s.peerUrl}`,
      `--initial-advertise-peer-urls=${s.peerUrl}`,
      `--initial-cluster=${initialCluster}`,
      `--initial-cluster-token=${token}`,
      '--initial-cluster-state=new',
      '--logger=zap',
      '--log-outputs=stderr',
    ]);
    return { ...s, dataDir, process: proc, start: () => proc.start(() => answers(s.clientUrl)), stop: () => proc.stop() };
  });
  try {
    // Members of a new cluster wait for each other, so all start together.
    await Promise.all(members.map((m) => m.start()));
  } catch (error) {
    await Promise.all(members.map((m) => m.stop()));
    dir.remove();
    throw error;
  }
  return {
    members,
    endpoints: members.map((m) => m.clientUrl),
    dir: dir.path,
    async close() {
      await Promise.all(members.map((m) => m.stop()));
      dir.remove();
    },
  };
}

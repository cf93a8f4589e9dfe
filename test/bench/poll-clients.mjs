// Agent-like clients for the gateway benchmark, in their own process so the gateway's memory is measured
// alone: each keeps one long poll held, polling again when it ends. Args: port, count, then pairs of cert/key
// files; the CA file comes from NAVIN_BENCH_CA. Prints "opened N" as it ramps, and exits on SIGTERM.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';

const [port, count, ...files] = process.argv.slice(2);
const ca = readFileSync(process.env.NAVIN_BENCH_CA);
const agents = [];
for (let i = 0; i < files.length; i += 2)
  agents.push(
    new Agent({
      keepAlive: true,
      maxSockets: Infinity,
      ca,
      cert: readFileSync(files[i]),
      key: readFileSync(files[i + 1]),
      servername: 'localhost',
    }),
  );
let stopping = false;
process.on('SIGTERM', () => {
  stopping = true;
  process.exit(0);
});
const poll = (agent) =>
  new Promise((resolve) => {
    const req = request(
      { host: '127.0.0.1', port: Number(port), path: '/v1/cluster-agent/commands?wait=30', agent, servername: 'localhost' },
      (res) => {
        res.resume();
        res.on('end', resolve);
      },
    );
    req.on('error', () => setTimeout(resolve, 200));
    req.end();
  });
const client = async (agent) => {
  while (!stopping) await poll(agent);
};
for (let i = 0; i < Number(count); i += 100) {
  for (let j = i; j < Math.min(Number(count), i + 100); j++) void client(agents[j % agents.length]);
  process.stdout.write(`opened ${Math.min(Number(count), i + 100)}\n`);
  await new Promise((r) => setTimeout(r, 150));
}

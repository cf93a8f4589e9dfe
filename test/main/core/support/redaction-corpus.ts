// Corpora for the redaction's recall and false positives. Secret cases: a text as it turns up in a journal, a
// config or a data file, and the values in it that must not survive. Plain cases: values that look like numbers,
// names or keys but are the configuration, the build or the time itself, and must come out unchanged.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { PRESET_ONLY_CASES } from './preset-only-corpus';

export const USERS = ['alice', 'bob.martin'];
export const KNOWN_SECRET = 'Vault-Pass-91zq';

export interface SecretCase {
  /** The class the issue names. */
  klass: string;
  text: string;
  /** The values that must be gone after redaction. */
  secrets: string[];
  /** The file the text sits in (its extension says JSON or YAML); a log line unless said. */
  path?: string;
}

const pem = (): string => generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
const b64 = (n: number): string => randomBytes(n).toString('base64');
const b64url = (n: number): string => randomBytes(n).toString('base64url');
const hex = (n: number): string => randomBytes(n).toString('hex');
const alnum = (n: number): string =>
  b64(n * 2)
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, n);
/** The body lines of a PEM (what is secret in it). */
const bodyOf = (key: string): string[] => key.split('\n').filter((l) => l && !l.startsWith('-----'));

const key1 = pem();
const truncated = key1.replace(/-----END [^\n]*\n?$/, '');
const key2 = pem();
const pgpBody = [b64(48), b64(48), b64(48)];
const puttyPrivate = b64(48);
const puttyMac = hex(32);
const clientKey = pem();
const clientKeyData = Buffer.from(clientKey).toString('base64');
const awsSig = hex(32);
const digestResponse = hex(16);
const digestNonce = hex(16);
const cookieValue = b64url(24);
const slackPath = `T0${alnum(8).toUpperCase()}/B0${alnum(8).toUpperCase()}/${alnum(24)}`;
const ssh2Body = [b64(48), b64(48)];
const jwkD = b64url(64);
const discordPath = `${'1'.repeat(18)}/${b64url(50)}`;

export const SECRET_CASES: SecretCase[] = [
  ...PRESET_ONLY_CASES,
  { klass: 'private key PEM', text: `key loaded:\n${key2}`, secrets: bodyOf(key2) },
  { klass: 'private key PEM without END line', text: `${truncated}Dec 04 03:25:10 host-1 app[812]: started`, secrets: bodyOf(truncated) },
  {
    klass: 'private key PEM without END line, escaped in one line',
    text: `{"level":"error","msg":"bad key","key":"${truncated.replace(/\n/g, '\\n')}"}`,
    secrets: bodyOf(truncated),
  },
  {
    klass: 'PGP private key',
    text: [
      '-----BEGIN PGP PRIVATE KEY BLOCK-----',
      'Version: GnuPG v2',
      '',
      ...pgpBody,
      `=${b64(3)}`,
      '-----END PGP PRIVATE KEY BLOCK-----',
    ].join('\n'),
    secrets: pgpBody,
  },
  {
    klass: 'PuTTY private key',
    text: [
      'PuTTY-User-Key-File-3: ssh-ed25519',
      'Encryption: none',
      'Comment: ed25519-key-20261204',
      'Public-Lines: 2',
      b64(48),
      b64(3),
      'Private-Lines: 1',
      puttyPrivate,
      `Private-MAC: ${puttyMac}`,
    ].join('\n'),
    secrets: [puttyPrivate, puttyMac],
  },
  {
    klass: 'kubeconfig client-key-data',
    path: 'config/host-1/root/.kube/config.yaml',
    text: `apiVersion: v1\nusers:\n  - name: admin\n    user:\n      client-certificate-data: ${b64(60)}\n      client-key-data: ${clientKeyData}\n`,
    secrets: [clientKeyData],
  },
  { klass: 'kubeconfig client-key-data', text: `client-key-data: ${clientKeyData}`, secrets: [clientKeyData] },
  { klass: 'base64 of a PEM private key', text: `loaded ${clientKeyData} from secret`, secrets: [clientKeyData.slice(0, 60)] },
  { klass: 'command-line option', text: 'ExecStart=/usr/bin/app --password Tr0ub4dor --listen :8080', secrets: ['Tr0ub4dor'] },
  { klass: 'command-line option', text: 'exec /usr/bin/app --db-password="two words here" -v', secrets: ['two words here'] },
  { klass: 'command-line option', text: 'app --api-key=k3yK3yk3y --token s3ss10n', secrets: ['k3yK3yk3y', 's3ss10n'] },
  { klass: 'command-line -pX', text: 'backup: mysqldump -uroot -pS3cr3tPw --all-databases', secrets: ['S3cr3tPw'] },
  { klass: 'command-line -pX', text: "mysql -h db -u app -p'Qu0t3d Pw' app", secrets: ['Qu0t3d Pw'] },
  { klass: 'XML password', text: '<connection><password>xmlPw-441</password></connection>', secrets: ['xmlPw-441'] },
  { klass: 'XML password', text: '<DbPassword>\n    multiLinePw-9\n</DbPassword>', secrets: ['multiLinePw-9'] },
  { klass: 'XML password', text: '<add key="SmtpPassword" value="attrPw-77"/>', secrets: ['attrPw-77'] },
  { klass: 'XML password', text: '<property name="db.password" value="propPw-12"/>', secrets: ['propPw-12'] },
  {
    klass: 'YAML block password',
    text: 'db:\n  password: |\n    blockPw-line1\n    blockPw-line2\n  host: db.internal\n',
    secrets: ['blockPw-line1', 'blockPw-line2'],
  },
  {
    klass: 'YAML block password',
    path: 'config/host-1/etc/app/app.yaml',
    text: 'db:\n  host: db.internal\n  password: >-\n    foldedPw-1\n    foldedPw-2\n  port: 5432\n',
    secrets: ['foldedPw-1', 'foldedPw-2'],
  },
  {
    klass: 'YAML password',
    path: 'config/host-1/etc/app/app.yml',
    text: 'auth:\n  password: "plain Pw 33"  # set by ops\n',
    secrets: ['plain Pw 33'],
  },
  {
    klass: 'YAML password',
    path: 'config/host-1/etc/app/app.yml',
    text: 'auth:\n  # old password: oldPw-88\n  user: app\n',
    secrets: ['oldPw-88'],
  },
  { klass: 'escaped-JSON password', text: 'msg="request body {\\"user\\":\\"app\\",\\"password\\":\\"escPw-5\\"}"', secrets: ['escPw-5'] },
  { klass: 'escaped-JSON password', text: 'payload: "{\\\\\\"password\\\\\\":\\\\\\"dblEscPw-6\\\\\\"}"', secrets: ['dblEscPw-6'] },
  {
    klass: 'JSON password',
    path: 'hosts/h1/facts.json',
    text: '{"db": {"password": {"value": "nestedPw-1"}}, "pin": 4921}',
    secrets: ['nestedPw-1'],
  },
  { klass: 'config password', text: 'password = correct horse battery staple', secrets: ['correct horse battery staple'] },
  { klass: 'config password', text: 'export PGPASSWORD=envPw-31', secrets: ['envPw-31'] },
  {
    klass: 'Cookie',
    text: `GET / HTTP/1.1 Cookie: navin_session=${cookieValue}; csrftoken=c5rfV4lue9`,
    secrets: [cookieValue, 'c5rfV4lue9'],
  },
  { klass: 'Cookie', text: `Set-Cookie: sid=${cookieValue}; Path=/; HttpOnly; Secure`, secrets: [cookieValue] },
  {
    klass: 'AWS4 Authorization',
    text: `Authorization: AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20261204/eu-west-3/s3/aws4_request, SignedHeaders=host;x-amz-date, Signature=${awsSig}`,
    secrets: ['AKIAIOSFODNN7EXAMPLE', awsSig],
  },
  {
    klass: 'AWS4 presigned URL',
    text: `GET https://bucket.s3.amazonaws.com/backup.tar?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20261204&X-Amz-Signature=${awsSig}`,
    secrets: ['AKIAIOSFODNN7EXAMPLE', awsSig],
  },
  {
    klass: 'Digest Authorization',
    text: `Authorization: Digest username="svc", realm="navin", nonce="${digestNonce}", uri="/x", response="${digestResponse}", opaque="5ccc"`,
    secrets: [digestNonce, digestResponse],
  },
  {
    klass: 'Digest Authorization',
    text: `{"headers":{"Authorization":"Digest username=\\"svc\\", response=\\"${digestResponse}\\""}}`,
    secrets: [digestResponse],
  },
  { klass: 'webhook URL', text: `notify: https://hooks.slack.com/services/${slackPath}`, secrets: [slackPath] },
  { klass: 'webhook URL', text: `posting to https://discord.com/api/webhooks/${discordPath} failed`, secrets: [discordPath] },
  { klass: 'webhook URL', text: 'alert_url = "https://chat.example.org/hooks/8x7k2m9p4qzz"', secrets: ['8x7k2m9p4qzz'] },
  { klass: 'URL credentials with / or @', text: 'upstream postgres://app:pa/ss@w0rd@db.internal:5432/app', secrets: ['pa/ss@w0rd'] },
  { klass: 'URL credentials with / or @', text: 'git clone https://deploy:s3@cr/et@git.example.org/repo.git', secrets: ['s3@cr/et'] },
  { klass: 'URL credentials', text: 'amqp://guest:g%2Fu3st@mq.internal:5672/', secrets: ['g%2Fu3st'] },
  { klass: 'short token', text: 'GET /api?token=ab12 200', secrets: ['ab12'] },
  { klass: 'short token', text: 'Authorization: Bearer x9k', secrets: ['x9k'] },
  { klass: 'short token', text: 'X-Auth-Token: q7w', secrets: ['q7w'] },
  { klass: 'short token', text: 'api_key: "k3y"', secrets: ['k3y'] },
  { klass: 'card', text: 'paid with 4111-1111-1111-1111 ok', secrets: ['4111-1111-1111-1111'] },
  { klass: 'card', text: 'card=4012888888881881', secrets: ['4012888888881881'] },
  { klass: 'card', text: 'amex 3782 822463 10005 and 3714-496353-98431', secrets: ['3782 822463 10005', '3714-496353-98431'] },
  { klass: 'card', text: 'mc 5555 5555 5555 4444, discover 6011 1111 1111 1117', secrets: ['5555 5555 5555 4444', '6011 1111 1111 1117'] },
  { klass: 'card', path: 'data/payments.json', text: '{"card": 4111111111111111, "amount": 1200}', secrets: ['4111111111111111'] },
  { klass: 'IBAN', text: 'refund to FR76 3000 6000 0112 3456 7890 189 today', secrets: ['FR76 3000 6000 0112 3456 7890 189'] },
  {
    klass: 'IBAN',
    text: 'iban=DE89370400440532013000 GB82 WEST 1234 5698 7654 32',
    secrets: ['DE89370400440532013000', 'GB82 WEST 1234 5698 7654 32'],
  },
  {
    klass: 'phone',
    text: 'call +33 6 12 34 56 78 or +33 (0)6 12 34 56 79 or +33.6.12.34.56.77 or 0033 6 12 34 56 76',
    secrets: ['6 12 34 56 78', '6 12 34 56 79', '6.12.34.56.77', '6 12 34 56 76'],
  },
  {
    klass: 'phone',
    text: 'astreinte 06.12.34.56.78 / 06-12-34-56-79 / 0612345677 / 01 42 68 53 00',
    secrets: ['06.12.34.56.78', '06-12-34-56-79', '0612345677', '01 42 68 53 00'],
  },
  {
    klass: 'phone in other national formats',
    text: 'UK 020 7946 0958, +44 20 7946 0959, DE 030 901820, CH 044 668 18 00, US (212) 555-0143, +1 415 555 2671',
    secrets: ['7946 0958', '7946 0959', '030 901820', '668 18 00', '555-0143', '555 2671'],
  },
  {
    klass: 'e-mail',
    text: 'Alice.Durand@Example.ORG alice+ops@example.org ops@mail.example.co.uk élodie.martin@exemple.fr',
    secrets: ['Alice.Durand', 'alice+ops', 'ops@mail', 'élodie.martin'],
  },
  {
    klass: 'e-mail variants',
    text: 'to=alice%40example.org cc: bob [at] example [dot] org, "carol durand"@example.org <dave@example.org> mailto:erin@example.org',
    secrets: ['alice%40example', 'bob [at] example', 'carol durand', 'dave@example', 'erin@example'],
  },
  {
    klass: 'user name in another case',
    text: 'session opened for Alice; ALICE logged out; Bob.Martin approved',
    secrets: ['Alice', 'ALICE', 'Bob.Martin'],
  },
  { klass: 'known secret', text: `vault unsealed with ${KNOWN_SECRET}`, secrets: [KNOWN_SECRET] },
  {
    klass: 'third-party token',
    text: `AKIA${'Q'.repeat(4)}2345${'Z'.repeat(8)} xoxb-${'1'.repeat(12)}-${alnum(24)} glpat-${alnum(20)} sk_live_${alnum(24)} AIza${alnum(35)} npm_${alnum(36)}`,
    secrets: ['AKIAQQQQ2345ZZZZZZZZ', 'xoxb-', 'glpat-', 'sk_live_', 'AIza', 'npm_'],
  },
  {
    klass: 'private key in SSH2 armour',
    text: [
      '---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----',
      'Comment: "rsa-key-20261204"',
      ...ssh2Body,
      '---- END SSH2 ENCRYPTED PRIVATE KEY ----',
    ].join('\n'),
    secrets: ssh2Body,
  },
  {
    klass: 'PGP private key',
    text: ['-----BEGIN PGP SECRET KEY BLOCK-----', '', ...pgpBody, '-----END PGP SECRET KEY BLOCK-----'].join('\n'),
    secrets: pgpBody,
  },
  {
    klass: 'JSON Web Key',
    path: 'config/h1/etc/app/jwks.json',
    text: `{"keys":[{"kty":"RSA","e":"AQAB","n":"${b64url(32)}","d":"${jwkD}"}]}`,
    secrets: [jwkD],
  },
  { klass: 'JSON Web Key', text: `loaded jwk {"kty":"oct","k":"${jwkD}"}`, secrets: [jwkD] },
  { klass: 'base64 key field', text: 'private_key_b64: Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA==', secrets: ['Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA=='] },
  { klass: 'XML password', text: '<secret><![CDATA[cdataPw-<5>]]></secret>', secrets: ['cdataPw-<5>'] },
  { klass: 'command-line option', text: 'curl -sS -u deploy:curlPw-1 https://repo.internal/upload', secrets: ['curlPw-1'] },
  {
    klass: 'command-line option',
    text: 'redis-cli -h cache -a redisPw-2 ping; sshpass -p sshPw-3 ssh ops@bastion',
    secrets: ['redisPw-2', 'sshPw-3'],
  },
  {
    klass: 'URL credentials',
    text: 'cache redis://:r3d1sPw@cache.internal:6379/0 and https://u:pw-in-q@host.internal/x?to=a@b.org',
    secrets: ['r3d1sPw', 'pw-in-q'],
  },
  {
    klass: 'webhook URL',
    text: 'https://webhook.site/0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0 https://events.pagerduty.com/integration/abcdef0123456789abcdef0123456789/enqueue https://maker.ifttt.com/trigger/deploy/with/key/iftttK3y99',
    secrets: ['0b1c2d3e-4f50', 'abcdef0123456789abcdef0123456789', 'iftttK3y99'],
  },
  { klass: 'card', text: 'card 4111.1111.1111.1111', secrets: ['4111.1111.1111.1111'] },
  {
    klass: 'phone in other national formats',
    text: 'ES 612 34 56 78, IT 347 123 4567, (+33) 6 12 34 56 75, tel:+33612345674, phone=0612345673, +33612345672',
    secrets: ['612 34 56 78', '347 123 4567', '6 12 34 56 75', '33612345674', '0612345673', '33612345672'],
  },
  {
    klass: 'e-mail variants',
    text: 'alice at example dot org; bob{at}example{dot}org; carol＠example.org; dave&#64;example.org',
    secrets: ['alice at', 'bob{at}', 'carol＠', 'dave&#64;'],
  },
  {
    klass: 'Kubernetes Secret',
    path: 'config/h1/etc/app/secret.yaml',
    text: 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  db-conn: cG9zdGdyZXM6Ly91OnBAaA==\nstringData:\n  config.ini: "[db]\\nuser=app"\n',
    secrets: ['cG9zdGdyZXM6Ly91OnBAaA==', 'user=app'],
  },
  {
    klass: 'Kubernetes Secret',
    path: 'data/secret.json',
    text: '{"apiVersion":"v1","kind":"Secret","metadata":{"name":"db"},"data":{"db-conn":"cG9zdGdyZXM6Ly91OnBAaA=="}}',
    secrets: ['cG9zdGdyZXM6Ly91OnBAaA=='],
  },
  {
    klass: 'password hash',
    text: [
      'basic_auth_users:',
      '  ops: $2y$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy',
      'admin:$apr1$r31.....$HqJZimcKQFAMYayBlzkrA/',
      'root:$6$rounds=5000$saltsalt$5B8vYYiY.CVt1RlTTf8KbXBH3hsxY/GNooZaBBGWEc5lz/jRF6gWRYoMHPbm8kwY2BtMzOc5J1nyiuoFkkVqa1',
      'argon: $argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG',
    ].join('\n'),
    secrets: [
      'N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy',
      'HqJZimcKQFAMYayBlzkrA/',
      '5B8vYYiY.CVt1RlTTf8KbXBH3hsxY',
      'RdescudvJCsgt3ub',
    ],
  },
];

export interface PlainCase {
  /** What the values are. */
  klass: string;
  text: string;
  path?: string;
}

export const PLAIN_CASES: PlainCase[] = [
  {
    klass: 'config numbers',
    text: 'max_memory_store: 268435456\nmax_file_store: 10737418240\nmax_payload: 1048576\nmax_connections: 64000',
  },
  {
    klass: 'config numbers',
    text: 'quota-backend-bytes: 8589934592\nsnapshot-count: 10000\nheartbeat-interval: 100\nelection-timeout: 1000',
  },
  { klass: 'config numbers', text: '[Service]\nMemoryMax=268435456\nLimitNOFILE=65536\nTasksMax=4096\nTimeoutStartSec=90\nRestartSec=5s' },
  { klass: 'config numbers', text: 'jetstream { max_mem: 1073741824, max_file: 10737418240, store_dir: "/var/lib/nats" }' },
  {
    klass: 'config numbers',
    path: 'services.json',
    text: '[{"service":"nats","settings":{"max_memory_store":268435456,"port":4222},"version":"2.9.25"}]',
  },
  {
    klass: 'config numbers',
    path: 'config/h1/etc/etcd/etcd.yaml',
    text: 'name: etcd-0\nquota-backend-bytes: 8589934592\nsnapshot-count: 10000\nlisten-client-urls: http://127.0.0.1:2379\n',
  },
  { klass: 'durations', text: 'write_deadline: "10s"\nping_interval: "2m"\nauth_timeout: 0.5\nretention 720h0m0s\ntoken_ttl: 720h' },
  {
    klass: 'durations',
    text: 'apply request took 1.234567ms, expected-duration 100ms; compaction took 12.345678ms; uptime_seconds 1234567.89',
  },
  {
    klass: 'durations',
    path: 'operations.json',
    text: '{"duration_ns": 4123456789012, "took_ms": 1234567, "timeout": "30m0s", "elapsed": 3600000}',
  },
  {
    klass: 'versions',
    text: 'nats-server: v2.9.25 git [dee8c5a] built with go1.21.5\netcd Version: 3.4.27\nGit SHA: 1b48970ff\nGo Version: go1.19.9',
  },
  {
    klass: 'build user names',
    text: 'msg="Starting node_exporter" version="(version=1.5.0, branch=HEAD, revision=1b48970ffcf5630534fb00bb0687d73c66d1c959)"\nmsg="Build context" build_context="(go=go1.19.3, user=root@6e7732a7b81b, date=20221129-18:59:09)"\nBuilt by: builder@buildkitsandbox',
  },
  {
    klass: 'hashes',
    text: 'sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\ndigest: sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08\nintegrity 47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=\nid 123e4567-e89b-12d3-a456-426614174000',
  },
  {
    klass: 'hashes',
    path: 'drift-findings.json',
    text: '[{"path":"/etc/nats/nats.conf","expected_sha256":"2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae","state":"modified"}]',
  },
  {
    klass: 'timestamps',
    text: 'Dec 04 03:25:10 host-1 etcd[812]: ts 2026-12-04T03:25:10.123456Z epoch 1733300000 ms 1733300000123 ns 1733300000123456789\n2026/12/04 03:25:10 on 04.12.2026 build 20261204-031510',
  },
  { klass: 'units', text: 'heap 12.5MiB of 1.2 GB (99.9%), limits 512Mi / 2 CPUs at 3.5 GHz, 2.00 MB/s, 10 000 req' },
  {
    klass: 'addresses in configs',
    text: 'listen: 198.19.4.20:4222\nadvertise 2001:db8::20\nhttp_port: 8222',
    path: 'config/h1/etc/nats/nats.conf',
  },
  {
    klass: 'keys that name no secret',
    text: 'password_file: /etc/navin/db.pass\ntoken_ttl: 720h\nbypass: true\nsecretName: etcd-tls\n--password-file /run/secrets/db\ntls.key: /etc/nats/tls.key',
  },
  {
    klass: 'counts and ids',
    text: 'pid 123456789 inode 1234567890123 seq 12345678901234567 tokens_issued_total 1234567 permissions 0644 mask 0x7fffffff ratio 0.000123456',
  },
  { klass: 'host names', text: 'peer etcd-0.etcd.navin.svc:2380 joined; nats-1 route to nats://nats-2.internal:6222' },
  { klass: 'config numbers', text: 'sizes 1 073 741 824 bytes and 10 737 418 240; ports 4222 6222 8222; MAC 00-11-22-33-44-55' },
  {
    klass: 'keys that name no secret',
    text: 'password_min_length: 12\ntoken_endpoint: https://auth.example.org/oauth/token\nmax_tokens: 4096\npasswordless: true\nprivate_key_file: /etc/app/key.pem',
  },
  {
    klass: 'commands',
    text: 'docker run -u 1000:1000 -p 8080:80 app; curl -sS -o /dev/null https://nats-0.internal:8222/healthz; restarted at boot',
  },
];

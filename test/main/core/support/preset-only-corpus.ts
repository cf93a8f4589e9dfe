// Secrets whose shapes only the maintained preset (secretlint's recommended rules) knows: the console's own rules
// miss them, so they show what the preset adds to the redaction's recall.
import { randomBytes } from 'node:crypto';

/** As a secret case of redaction-corpus.ts (which holds these too). */
export interface PresetCase {
  klass: string;
  text: string;
  secrets: string[];
  path?: string;
}

const hex = (n: number): string => randomBytes(n).toString('hex');
const alnum = (n: number): string =>
  randomBytes(n * 2)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, n);

/** A 1Password service account token: `ops_` and the base64 of a JSON object (padded so it ends `fQ==`). */
const onePassword = (): string => {
  let json = JSON.stringify({ email: `${hex(6)}@1passwordserviceaccounts.lcl`, secretKey: `A3-${alnum(30)}`, srpX: hex(32) });
  while (json.length % 3 !== 1) json = json.replace('{', '{ ');
  return `ops_${Buffer.from(json).toString('base64')}`;
};
const opsToken = onePassword();
const shopifyToken = `shpat_${alnum(40)}`;
const linearKey = `lin_api_${alnum(64)}`;
const shopifySecret = `shpss_${alnum(64)}`;

/** Shapes only the maintained preset (secretlint's recommended rules) knows: the console's own rules miss them. */
export const PRESET_ONLY_CASES: PresetCase[] = [
  { klass: '1Password service account token', text: `export OP_SERVICE_ACCOUNT_TOKEN ${opsToken}`, secrets: [opsToken] },
  { klass: 'Shopify token', text: `shop sync with ${shopifyToken} done`, secrets: [shopifyToken] },
  { klass: 'Linear API key', text: `linear: ${linearKey}`, secrets: [linearKey], path: 'config/h1/etc/app/linear.yaml' },
  {
    klass: 'Shopify shared secret',
    text: JSON.stringify({ shop: { provider: 'shopify', secret_ref: shopifySecret }, port: 443 }),
    secrets: [shopifySecret],
    path: 'config/h1/etc/app/shop.json',
  },
];

#!/usr/bin/env node
// Benchmark of the console's clusters list in Chromium with 5,000 clusters in the manager: time to first render
// of the list and time to filter it, each against a bare baseline measured in the same run and the same browser:
//   - api:      fetch + JSON.parse of GET /api/v1/clusters in the page (the whole list: the data alone);
//   - apiPage:  fetch + JSON.parse of the first page the console asks for (checked against its request);
//   - static:   the whole-list fetch, then a plain list of 5,000 <div>s appended to the document, until painted;
//   - console:  the real console, from navigation start until the virtualised list shows its rows and the
//               "5,000 clusters" count (bundle load, session check and list load included);
//   - whole:    the same navigation until the rest of the list is in (the table no longer busy): from then on
//               filters and state counts are over every cluster;
//   - filter:   typing a term in the console's filter until the rows match, against hiding the non-matching
//               <div>s of the static list (same term, same data), once the list is whole.
// Usage: npm run build && node test/bench/console-list.mjs [--clusters 5000] [--runs 5]
// Needs /usr/bin/chromium (or CHROMIUM_PATH). Starts its own manager on 127.0.0.1 (free ports) and stops it.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'out', 'main', 'cli.js');
const { values } = parseArgs({ options: { clusters: { type: 'string', default: '5000' }, runs: { type: 'string', default: '5' } } });
const TOTAL = Number(values.clusters);
const RUNS = Number(values.runs);
const USER = 'alice';
const PASSWORD = 'bench-password-long-enough';
// The console's first page (FIRST_PAGE of its clusters store); the console run checks that it asks for this.
const FIRST_PAGE_PATH = '/api/v1/clusters?limit=100';
// The goal of the performance issue for the first render, against the whole-list API call.
const GOAL = 1.2;
// The flags of playwright.config.ts.
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

function cli(args) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`navin-manager ${args[0]} failed (${r.status}):\n${r.stdout}${r.stderr}`);
  return r.stdout.trim();
}

function startServe(dataDir) {
  const child = spawn(
    process.execPath,
    [CLI, 'serve', '--data-dir', dataDir, '--host', '127.0.0.1', '--port', '0', '--gateway-port', 'off'],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve printed no URL:\n${out}`)), 30_000);
    child.stderr.on('data', (c) => (out += c));
    child.stdout.on('data', (c) => {
      out += c;
      const m = /console at (https:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: new URL(m[1]).origin });
      }
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}:\n${out}`)));
  });
}

function stopServe(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGINT');
  });
}

function api(origin, ca, token, method, path, body) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = httpsRequest(
      new URL(path, origin),
      { method, ca, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' } },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode, text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function createClusters(origin, ca, token) {
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < TOTAL) {
      const i = next++;
      const r = await api(origin, ca, token, 'POST', '/api/v1/clusters', {
        name: `bulk-${String(i).padStart(4, '0')}`,
        description: `bench row ${i}`,
      });
      if (r.status !== 201) throw new Error(`create ${i}: ${r.status} ${r.text}`);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return performance.now() - started;
}

// --- in-page measurements (serialised into the page) ---

/** fetch + JSON.parse of the list, or of a page of it. */
async function pageApi(path) {
  const t0 = performance.now();
  const res = await fetch(path, { credentials: 'same-origin', cache: 'no-store' });
  const list = await res.json();
  return { ms: performance.now() - t0, n: list.items.length, total: list.total };
}

/** fetch, then 5,000 plain <div>s, until the next frame is painted. */
async function pageStatic() {
  document.body.replaceChildren();
  const t0 = performance.now();
  const res = await fetch('/api/v1/clusters', { credentials: 'same-origin', cache: 'no-store' });
  const list = await res.json();
  const box = document.createElement('div');
  for (const c of list.items) {
    const d = document.createElement('div');
    d.className = 'row';
    d.textContent = `${c.name} ${c.state} ${c.tenant} ${c.created_at}`;
    d.dataset.name = c.name;
    box.appendChild(d);
  }
  document.body.appendChild(box);
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  return { ms: performance.now() - t0, n: box.childElementCount };
}

/** Hides the static <div>s that do not contain the term, until painted. */
async function pageStaticFilter(term) {
  const rows = document.querySelectorAll('div.row');
  const t0 = performance.now();
  let shown = 0;
  for (const r of rows) {
    const match = r.textContent.toLowerCase().includes(term);
    r.style.display = match ? '' : 'none';
    if (match) shown++;
  }
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  return { ms: performance.now() - t0, shown };
}

/** Types the term in the console's filter, until the shown count and the rendered rows match. */
async function pageConsoleFilter({ term, expected }) {
  const input = document.querySelector('[data-testid="cluster-filter"]');
  const shown = () => document.querySelector('[data-testid="clusters-shown"]')?.textContent ?? '';
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
  const t0 = performance.now();
  setter.call(input, term);
  input.dispatchEvent(new Event('input', { bubbles: true }));
  await new Promise((resolve, reject) => {
    const deadline = t0 + 30_000;
    const check = () => {
      const names = [...document.querySelectorAll('[data-testid="cluster-row"]')].map((r) => r.getAttribute('data-cluster-name') ?? '');
      const n = Number((/^[\d,.\s\u202f]+/.exec(shown())?.[0] ?? '').replace(/\D/g, ''));
      // The count says so and every rendered row matches (all of them when they fit on screen).
      if (n === expected && names.length > 0 && names.every((x) => x.includes(term)) && (expected > 40 || names.length === expected))
        return resolve();
      if (performance.now() > deadline) return reject(new Error(`filter ${term}: ${shown()} / ${names.length} rows`));
      requestAnimationFrame(check);
    };
    check();
  });
  await new Promise((r) => requestAnimationFrame(r));
  const ms = performance.now() - t0;
  // Back to the whole list for the next run.
  setter.call(input, '');
  input.dispatchEvent(new Event('input', { bubbles: true }));
  return { ms, rows: document.querySelectorAll('[data-testid="cluster-row"]').length };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'navin-bench-list-'));
  const dataDir = join(dir, 'data');
  let serve;
  let browser;
  try {
    writeFileSync(join(dir, 'pw'), `${PASSWORD}\n`, { mode: 0o600 });
    cli(['user', 'add', '--data-dir', dataDir, '--name', USER, '--role', 'admin', '--password-file', join(dir, 'pw')]);
    const token = cli(['token', 'create', '--data-dir', dataDir, '--user', USER]).split('\n').pop().trim();
    serve = await startServe(dataDir);
    const origin = serve.url;
    const ca = readFileSync(join(dataDir, 'tls', 'ca.crt'));
    const createMs = await createClusters(origin, ca, token);
    console.log(`created ${TOTAL} clusters through the API in ${(createMs / 1000).toFixed(1)} s`);

    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ARGS });
    const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1360, height: 820 }, locale: 'en-GB' });
    const page = await context.newPage();
    const login = await page.request.post(`${origin}/api/v1/session`, { data: { name: USER, password: PASSWORD } });
    if (login.status() !== 200) throw new Error(`login: ${login.status()}`);

    const results = {
      api: [],
      apiPage: [],
      static: [],
      console: [],
      whole: [],
      filterOneStatic: [],
      filterOne: [],
      filterManyStatic: [],
      filterMany: [],
    };
    // The list requests of each console navigation, in order.
    let listRequests = [];
    page.on('request', (req) => {
      const u = new URL(req.url());
      if (u.pathname === '/api/v1/clusters') listRequests.push(u.pathname + u.search);
    });
    const countText = TOTAL.toLocaleString('en-GB');
    const oneTerm = `bulk-${String(TOTAL - 1).padStart(4, '0')}`;
    const manyTerm = 'bulk-1';
    const manyExpected = Array.from({ length: TOTAL }, (_, i) => `bulk-${String(i).padStart(4, '0')}`).filter((n) =>
      n.includes(manyTerm),
    ).length;

    for (let run = 0; run < RUNS; run++) {
      // Baselines on a bare same-origin document (the health route), so the session cookie applies.
      await page.goto(`${origin}/api/v1/health`);
      const whole = await page.evaluate(pageApi, '/api/v1/clusters');
      if (whole.n !== TOTAL) throw new Error(`the whole list has ${whole.n} clusters`);
      results.api.push(whole.ms);
      const first = await page.evaluate(pageApi, FIRST_PAGE_PATH);
      if (first.total !== TOTAL) throw new Error(`the first page counts ${first.total} clusters`);
      results.apiPage.push(first.ms);
      const st = await page.evaluate(pageStatic);
      if (st.n !== TOTAL) throw new Error(`static list has ${st.n} rows`);
      results.static.push(st.ms);
      results.filterOneStatic.push((await page.evaluate(pageStaticFilter, oneTerm)).ms);
      await page.evaluate(pageStaticFilter, '');
      results.filterManyStatic.push((await page.evaluate(pageStaticFilter, manyTerm)).ms);

      // The console, from navigation start until the list is on screen with its count.
      listRequests = [];
      await page.goto(`${origin}/#/clusters`, { waitUntil: 'commit' });
      const shownAt = await page.evaluate(
        (text) =>
          new Promise((resolve, reject) => {
            const deadline = performance.now() + 60_000;
            const check = () => {
              const count = document.querySelector('[data-testid="clusters-count"]')?.textContent ?? '';
              if (count.startsWith(text) && document.querySelector('[data-testid="cluster-row"]'))
                return requestAnimationFrame(() => resolve(performance.now()));
              if (performance.now() > deadline) return reject(new Error(`list not rendered: ${count}`));
              requestAnimationFrame(check);
            };
            check();
          }),
        countText,
      );
      results.console.push(shownAt);
      // Then until the rest is in: the table is no longer busy and the toolbar no longer says part is loaded.
      const wholeAt = await page.evaluate(
        () =>
          new Promise((resolve, reject) => {
            const deadline = performance.now() + 60_000;
            const check = () => {
              const table = document.querySelector('[data-testid="clusters-table"]');
              const note = document.querySelector('[data-testid="clusters-shown"]')?.textContent ?? '';
              if (table?.getAttribute('aria-busy') === 'false' && note === '')
                return requestAnimationFrame(() => resolve(performance.now()));
              if (performance.now() > deadline) return reject(new Error(`list not whole: ${note}`));
              requestAnimationFrame(check);
            };
            check();
          }),
      );
      results.whole.push(wholeAt);
      if (listRequests[0] !== FIRST_PAGE_PATH) throw new Error(`the console asked first for ${listRequests[0]}, not ${FIRST_PAGE_PATH}`);
      const rendered = await page.locator('[data-testid="cluster-row"]').count();
      if (rendered > 100) throw new Error(`the list is not virtualised: ${rendered} rows in the DOM`);
      results.filterOne.push((await page.evaluate(pageConsoleFilter, { term: oneTerm, expected: 1 })).ms);
      await page.waitForFunction(() => !document.querySelector('[data-testid="clusters-shown"]')?.textContent);
      results.filterMany.push((await page.evaluate(pageConsoleFilter, { term: manyTerm, expected: manyExpected })).ms);
    }

    const m = Object.fromEntries(Object.entries(results).map(([k, v]) => [k, median(v)]));
    const f = (x) => `${x.toFixed(1)} ms`;
    const r = (a, b) => `${(a / b).toFixed(2)}×`;
    console.log(`\nconsole clusters list, ${TOTAL} clusters, Chromium, median of ${RUNS} runs`);
    console.log(`  API call alone, whole list (fetch + parse)   ${f(m.api)}`);
    console.log(`  API call alone, first page (fetch + parse)   ${f(m.apiPage)}   (${FIRST_PAGE_PATH})`);
    console.log(`  static list of ${TOTAL} <div>s (fetch + DOM)   ${f(m.static)}`);
    console.log(
      `  console first render (navigation → rows)     ${f(m.console)}   ${r(m.console, m.api)} the whole-list API call (goal ≤ ${GOAL}×), ` +
        `${r(m.console, m.apiPage)} the first-page call, ${r(m.console, m.static)} the static list`,
    );
    console.log(`  console whole list in (navigation → rest)   ${f(m.whole)}   ${r(m.whole, m.api)} the whole-list API call`);
    console.log(
      `  filter to 1 row: console                     ${f(m.filterOne)}   ${r(m.filterOne, m.filterOneStatic)} the static list (${f(m.filterOneStatic)})`,
    );
    console.log(
      `  filter to ${manyExpected} rows ("${manyTerm}"): console       ${f(m.filterMany)}   ${r(m.filterMany, m.filterManyStatic)} the static list (${f(m.filterManyStatic)})`,
    );
    console.log(JSON.stringify({ bench: 'console-list', clusters: TOTAL, runs: RUNS, median_ms: m, samples_ms: results }));
  } finally {
    await browser?.close();
    if (serve) await stopServe(serve.child);
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});

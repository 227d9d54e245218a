// The reviewer console end to end, in Debian chromium driven by playwright-core, against a
// real docintel-server process with the healthcare plugin and real workers: a team workspace
// holds the sample prior-authorization request and payer policy and a prior_auth run of them.
// The reviewer (an ordinary, non-admin user) signs in → the inbox shows the run → the run page
// → the cited page image with the member id highlighted → edits fields (audited) → approves
// after the confirmation page → generates and downloads the prior_auth packet, whose text
// (pdftotext) holds the edited value → signs out. A viewer of the workspace sees the run but
// no approve button or edit form, and the POSTs they forge are refused with 403 while the run
// stays as it was. Screenshots of each step go to CONSOLE_E2E_SCREENSHOTS.
//
// Environment: DOCINTEL_TEST_DATABASE_URL, DOCINTEL_SERVER_BIN, DOCINTEL_ADMIN_BIN,
// DOCINTEL_HEALTHCARE_PLUGIN (the built healthcare.so), CONSOLE_E2E_SCREENSHOTS, CHROMIUM
// (default /usr/bin/chromium), DOCINTEL_MODELS_DIR (default <repo>/var/models). playwright-core comes from tests/e2e/oauth (one lock file).

import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { env, freePort, steps, withDatabase } from '../oauth/harness.mjs';

const require = createRequire(new URL('../oauth/package.json', import.meta.url));
const { chromium } = require('playwright-core');

const baseDbUrl = env('DOCINTEL_TEST_DATABASE_URL');
const serverBin = env('DOCINTEL_SERVER_BIN');
const adminBin = env('DOCINTEL_ADMIN_BIN');
const pluginSo = env('DOCINTEL_HEALTHCARE_PLUGIN');
const shotDir = env('CONSOLE_E2E_SCREENSHOTS', path.resolve('console-e2e-screenshots'));
const chromiumPath = env('CHROMIUM', '/usr/bin/chromium');
const { step, tally } = steps();
const dataFiles = new URL('../../data/workflows/healthcare/', import.meta.url);
// A one-page memo from the shared corpus, uploaded through the browser and asked about.
const memoPdf = new URL('../../../../shared/datasets/doc-corpus/pdf/text/fake-memo.pdf', import.meta.url);
// The encoder's weights (`make model`): without them documents stop at `chunked`.
const modelsDir = env('DOCINTEL_MODELS_DIR', fileURLToPath(new URL('../../../var/models', import.meta.url)));


async function poll(what, fn, seconds = 180) {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const out = await fn();
    if (out) return out;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

const dbName = `docintel_e2e_console_${randomBytes(4).toString('hex')}`;
const adminDb = withDatabase(baseDbUrl, 'postgres');
const dbUrl = withDatabase(baseDbUrl, dbName);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docintel-console-e2e-'));
fs.mkdirSync(shotDir, { recursive: true });
const shot = (page, name) => page.screenshot({ path: path.join(shotDir, name), fullPage: true });

const cleanups = [];
let exitCode = 0;
let serverLogTail = null;
try {
  execFileSync('psql', [adminDb, '-qc', `CREATE DATABASE ${dbName}`]);
  cleanups.push(() => execFileSync('psql', [adminDb, '-qc', `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`]));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  fs.mkdirSync(path.join(dataDir, 'plugins'));
  fs.copyFileSync(pluginSo, path.join(dataDir, 'plugins', 'healthcare.so'));

  const port = await freePort();
  const base = `http://localhost:${port}`;
  const serverEnv = {
    ...process.env,
    DOCINTEL_DATABASE_URL: dbUrl,
    DOCINTEL_DATA_DIR: dataDir,
    DOCINTEL_MODELS_DIR: modelsDir,
    DOCINTEL_PLUGINS_DIR: path.join(dataDir, 'plugins'),
    DOCINTEL_HOST: '127.0.0.1',
    DOCINTEL_PORT: String(port),
    DOCINTEL_BASE_URL: base,
    DOCINTEL_MCP_PORT: String(await freePort()),
  };
  const server = spawn(serverBin, [], { env: serverEnv, stdio: ['ignore', 'ignore', 'pipe'] });
  const serverLog = [];
  server.stderr.on('data', (d) => serverLog.push(d.toString()));
  serverLogTail = () => serverLog.join('').split('\n').slice(-40).join('\n');
  cleanups.push(() => server.kill('SIGTERM'));
  await step('docintel-server starts with the healthcare plugin', () => poll('readiness', async () => {
    if (server.exitCode !== null) throw new Error(`docintel-server exited with ${server.exitCode}`);
    try { return (await fetch(`${base}/readyz`)).ok; } catch { return false; }
  }, 60));

  const admin = (...args) => execFileSync(adminBin, args, { env: serverEnv }).toString();
  const scopes = (await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json())
    .scopes_supported.join(' ');
  const reviewer = { email: 'reviewer@console.test', password: 'console reviewer password' };
  const viewer = { email: 'viewer@console.test', password: 'console viewer password' };
  const token = await step('an administrator creates the reviewer and the viewer (not admins)', () => {
    for (const u of [reviewer, viewer]) {
      admin('user', 'create', '--email', u.email, '--password', u.password);
      admin('user', 'grant', '--email', u.email, '--scope', scopes);
    }
    return admin('token', '--email', reviewer.email, '--scope', scopes, '--audience', 'rest').trim();
  });
  const api = async (method, p, body, workspace) => {
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    if (workspace) headers['x-docintel-workspace-id'] = workspace;
    const r = await fetch(`${base}/api/v1${p}`, { method, headers, body: body && JSON.stringify(body) });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : null };
  };

  const { workspace, runId, criterion, requestDoc, policyDoc } = await step('a team workspace with the sample request, policy and a prior_auth run', async () => {
    const ws = await api('POST', '/workspaces', { name: 'Prior authorizations' });
    assert.equal(ws.status, 201, JSON.stringify(ws.body));
    const workspaceId = ws.body.id;
    const member = await api('POST', `/workspaces/${workspaceId}/members`, { email: viewer.email, role: 'viewer' });
    assert.ok(member.status < 300, JSON.stringify(member.body));
    const upload = async (name) => {
      const bytes = fs.readFileSync(new URL(name, dataFiles));
      const created = await api('POST', '/uploads',
        { filename: name, content_type: 'application/pdf', file_size: bytes.length }, workspaceId);
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const put = await fetch(created.body.upload_url, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: bytes });
      assert.ok(put.ok, `PUT ${put.status}`);
      const done = await api('POST', '/uploads/complete', {
        filename: name, file_size: bytes.length, doc_id: created.body.doc_id,
        storage_source_path: created.body.storage_source_path,
      }, workspaceId);
      assert.equal(done.status, 202, JSON.stringify(done.body));
      return created.body.doc_id;
    };
    const request = await upload('prior_auth_request.pdf');
    const policy = await upload('payer_policy.pdf');
    for (const id of [request, policy]) {
      await poll(`document ${id}`, async () => {
        const d = await api('GET', `/documents/${id}`, null, workspaceId);
        if (d.body.status === 'error') throw new Error(JSON.stringify(d.body));
        return ['chunked', 'embedded'].includes(d.body.status);
      });
    }
    const started = await api('POST', '/verticals/healthcare/runs', {
      workflow: 'healthcare_prior_auth', document_ids: [request],
      inputs: { policy_document_ids: [policy] },
    }, workspaceId);
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const run = await poll('the run', async () => {
      const r = await api('GET', `/verticals/healthcare/runs/${started.body.run_id}`, null, workspaceId);
      return r.body.status !== 'running' && r.body;
    });
    assert.equal(run.status, 'pending_review', JSON.stringify(run.error));
    const index = run.review_packet.criteria.findIndex((c) => c.id === '4');
    assert.ok(index >= 0);
    return { workspace: workspaceId, runId: run.run_id, criterion: index, requestDoc: request, policyDoc: policy };
  });
  const runNow = async () => (await api('GET', `/verticals/healthcare/runs/${runId}`, null, workspace)).body;

  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  cleanups.push(() => browser.close());

  const pageErrors = [];  // script errors and CSP refusals in any page
  async function signIn(who, label) {
    const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.on('console', (m) => { if (m.type() === 'error') pageErrors.push(m.text()); });
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    await page.goto(`${base}/console`);
    await page.waitForSelector('#email');
    await shot(page, `${label}-0-sign-in.png`);
    await page.fill('#email', who.email);
    await page.fill('#password', who.password);
    await Promise.all([page.waitForURL(`${base}/console`), page.click('#sign-in')]);
    return { context, page };
  }

  const { context, page } = await step('the reviewer signs in through /authorize (no consent page)', async () => {
    const s = await signIn(reviewer, '1-reviewer');
    assert.equal(await s.page.textContent('h1'), 'Inbox');
    const cookie = (await s.context.cookies()).find((c) => c.name === 'docintel_console');
    assert.ok(cookie, 'session cookie');
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, 'Lax');
    assert.equal(cookie.path, '/console');
    const r = await s.page.request.get(`${base}/console`);
    const csp = r.headers()['content-security-policy'];
    assert.ok(csp.includes("default-src 'none'") && !csp.includes('unsafe-inline'), csp);
    return s;
  });

  await step('inbox: the workspace switcher shows the team workspace and its run', async () => {
    await page.selectOption('#workspace', workspace);
    await Promise.all([page.waitForURL(/workspace=/), page.click('.switcher button')]);
    const row = page.locator(`#runs tr[data-run-id="${runId}"]`);
    assert.match(await row.textContent(), /Prior authorization/i);
    assert.match(await row.textContent(), /Waiting for review/);
    assert.equal(await page.textContent('#summary [data-count="pending_review"]'), '1');
    const counts = await (await page.request.get(`${base}/console/counts?workspace=${workspace}`)).json();
    assert.equal(counts.statuses.pending_review, '1');
    assert.equal(counts.tasks, '1');
    const script = await page.request.get(`${base}/console/static/console.js`);
    assert.match(script.headers()['content-type'], /javascript/);
    // The engine opened an unassigned review task for the run; the reviewer takes it.
    const task = page.locator('#tasks tr', { hasText: 'no one' }).first();
    assert.match(await task.textContent(), /pending/);
    await shot(page, '2-inbox.png');
    await Promise.all([page.waitForURL(/done=taken/), task.locator('button.take').click()]);
    assert.match(await page.textContent('#tasks'), /to me/);
    assert.equal(await page.locator('#tasks button.take').count(), 0);
    await page.selectOption('#status', 'approved');
    await Promise.all([page.waitForURL(/status=approved/), page.click('.filters button')]);
    assert.equal(await page.locator(`#runs tr[data-run-id="${runId}"]`).count(), 0);
    await page.selectOption('#status', 'pending_review');
    await Promise.all([page.waitForURL(/status=pending_review/), page.click('.filters button')]);
  });

  const memberRow = `tr[data-field="/patient/member_id"]`;
  await step('the run page shows every field; the member id cited on its highlighted page', async () => {
    await Promise.all([page.waitForURL(/\/console\/runs\//), page.click(`#runs tr[data-run-id="${runId}"] a`)]);
    assert.ok(await page.locator('#fields tbody tr').count() > 5);
    assert.match(await page.textContent(memberRow), /HPX-448-20931/);
    await Promise.all([page.waitForURL(/field=/), page.click(`${memberRow} td:last-child a`)]);
    await page.waitForSelector('#page-image');
    const loaded = await page.$eval('#page-image', (img) => img.complete && img.naturalWidth > 0);
    assert.ok(loaded, 'the page image loads');
    assert.ok(await page.locator('#evidence rect.highlight').count() >= 1, 'the passage is highlighted');
    assert.equal(await page.locator('#evidence rect.highlight-value').count(), 1, 'the member id is highlighted');
    assert.match(await page.textContent('#excerpt'), /HPX-448-20931/);
    const png = await page.request.get(await page.$eval('#page-image', (img) => img.src));
    assert.equal(png.headers()['content-type'], 'image/png');
    await shot(page, '3-run-evidence.png');
    await page.setViewportSize({ width: 800, height: 1000 });  // a tablet: evidence below
    await shot(page, '3b-run-evidence-tablet.png');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  await step('the reviewer edits the member id and a criterion; the audit trail shows both', async () => {
    await page.fill(`${memberRow} input[name=value]`, 'HPX-448-20932');
    await Promise.all([page.waitForURL(/done=saved/), page.click(`${memberRow} button`)]);
    const statusRow = `tr[data-field="/criteria/${criterion}/status"]`;
    await page.fill(`${statusRow} input[name=value]`, 'met');
    await Promise.all([page.waitForURL(/done=saved/), page.click(`${statusRow} button`)]);
    assert.match(await page.textContent('#audit'), /HPX-448-20931[\s\S]*HPX-448-20932/);
    assert.match(await page.textContent('#notice'), /Saved/);
    await shot(page, '4-edited.png');
    const run = await runNow();
    assert.equal(run.review_packet.patient.member_id.value, 'HPX-448-20932');
  });

  await step('a form post without the session CSRF token is refused', async () => {
    const r = await page.request.post(`${base}/console/runs/${runId}/approve`, { form: { confirm: 'yes' } });
    assert.equal(r.status(), 403);
    assert.equal((await runNow()).status, 'pending_review');
  });

  await step('a viewer sees the run but cannot approve or edit; forged posts are refused', async () => {
    const v = await signIn(viewer, '5-viewer');
    await v.page.goto(`${base}/console?workspace=${workspace}`);
    assert.equal(await v.page.locator(`#runs tr[data-run-id="${runId}"]`).count(), 1);
    await v.page.goto(`${base}/console/runs/${runId}`);
    assert.equal(await v.page.locator('#approve').count(), 0);
    assert.equal(await v.page.locator('form.edit').count(), 0);
    await shot(v.page, '5-viewer-run.png');
    const csrf = await v.page.$eval('.signout input[name=csrf_token]', (i) => i.value);
    const before = await runNow();
    const approve = await v.page.request.post(`${base}/console/runs/${runId}/approve`,
      { form: { csrf_token: csrf, confirm: 'yes' } });
    assert.equal(approve.status(), 403);
    const edit = await v.page.request.post(`${base}/console/runs/${runId}/fields`,
      { form: { csrf_token: csrf, field: '/patient/member_id', value: 'FORGED' } });
    assert.equal(edit.status(), 403);
    const confirmPage = await v.page.request.get(`${base}/console/runs/${runId}/approve`);
    assert.equal(confirmPage.status(), 403);
    const after = await runNow();
    assert.equal(after.status, 'pending_review');
    assert.equal(after.revision, before.revision);
    assert.equal(after.review_packet.patient.member_id.value, 'HPX-448-20932');
    await v.context.close();
  });

  await step('approve: the confirmation page, then the approved run', async () => {
    await Promise.all([page.waitForURL(/\/approve$/), page.click('#approve')]);
    assert.equal(await page.textContent('h1'), 'Approve this run?');
    await shot(page, '6-approve-confirmation.png');
    await Promise.all([page.waitForURL(/done=approved/), page.click('#confirm')]);
    assert.equal(await page.getAttribute('#run-status', 'data-status'), 'approved');
    assert.equal(await page.textContent('#run-status'), 'Approved');
    assert.equal((await runNow()).status, 'approved');
    await shot(page, '7-approved.png');
  });

  await step('generate and download the prior_auth packet; its text holds the edited value', async () => {
    await Promise.all([page.waitForURL(/done=packet/), page.click('#generate-prior_auth')]);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('a.download[data-packet-type="prior_auth"]'),
    ]);
    const pdf = path.join(shotDir, 'prior_auth_packet.pdf');
    await download.saveAs(pdf);
    const text = execFileSync('pdftotext', [pdf, '-']).toString();
    assert.match(text, /HPX-448-20932/);
    assert.doesNotMatch(text, /HPX-448-20931/);
    await shot(page, '8-packet.png');
  });

  await step('documents: a PDF uploaded in the browser fills the progress bar, then its row goes live to embedded', async () => {
    await Promise.all([page.waitForURL(/\/console\/documents\?workspace=/), page.click('#nav-documents')]);
    assert.equal(await page.textContent('h1'), 'Documents');
    for (const id of [requestDoc, policyDoc]) {
      assert.equal(await page.locator(`#documents tr[data-document-id="${id}"]`).count(), 1);
    }
    const csp = (await page.request.get(`${base}/console/documents?workspace=${workspace}`)).headers()['content-security-policy'];
    assert.match(csp, /connect-src 'self';/);  // the local store: uploads go to this server
    let reloaded = false;
    page.on('framenavigated', (f) => { if (f === page.mainFrame()) reloaded = true; });
    await page.setInputFiles('#upload-file', fileURLToPath(memoPdf));
    await page.click('#upload-button');
    await page.waitForFunction(() => {
      const bar = document.getElementById('upload-progress');
      return bar.value === bar.max;
    });
    assert.equal(await page.$eval('#upload-progress', (bar) => bar.value), 100);
    const row = page.locator('#documents tbody tr', { hasText: 'fake-memo.pdf' });
    await row.waitFor();
    await shot(page, '10-documents-upload.png');
    await page.waitForSelector('#documents tbody tr:has-text("fake-memo.pdf") [data-status="embedded"]', { timeout: 180000 });
    assert.equal(reloaded, false, 'the row went live without a reload');
    assert.match(await page.textContent('#upload-status'), /uploaded/);
    await shot(page, '10b-documents-embedded.png');
  });

  await step('ask: the answer streams in with citations; a citation opens its page highlighted', async () => {
    await Promise.all([page.waitForURL(/\/console\/ask\?workspace=/), page.click('#nav-ask')]);
    await page.fill('#question', 'How many blankets were delivered?');
    await page.check('.ask-documents label:has-text("fake-memo.pdf")');
    // The node's indexes follow the change feed: ask again until the memo is found.
    await poll('a cited answer', async () => {
      await page.click('#ask-button');
      await page.waitForSelector('#answer[data-done="true"]', { timeout: 60000 });
      return (await page.locator('#citations a.citation').count()) > 0;
    }, 60);
    // The answer came as token frames before `done` (how many the page appended; when they
    // arrive in one network read, no paint shows them apart, so count, do not watch).
    assert.ok(Number(await page.getAttribute('#answer', 'data-tokens')) >= 1, 'token frames came before done');
    assert.match(await page.textContent('#answer-text'), /10,000 blankets/);
    assert.equal(await page.getAttribute('#answer-text', 'data-refused'), 'false');
    assert.match(page.url(), /\/console\/ask\?workspace=/);  // streamed: no form post
    await shot(page, '11-answer.png');
    await Promise.all([page.waitForURL(/\/view\?page=\d+&quote=/), page.locator('#citations a.citation').first().click()]);
    await page.waitForSelector('#page-image');
    assert.ok(await page.$eval('#page-image', (img) => img.complete && img.naturalWidth > 0), 'the page image loads');
    assert.equal(await page.locator('rect#highlight').count(), 1, 'the cited passage is highlighted');
    assert.ok(await page.locator('rect.highlight').count() >= 1);
    assert.match(await page.textContent('#excerpt'), /blankets/);
    await shot(page, '12-citation.png');
  });

  await step('sign-out ends the session', async () => {
    await page.click('#sign-out');
    await page.waitForSelector('text=Signed out');
    await shot(page, '9-signed-out.png');
    await page.goto(`${base}/console`);
    await page.waitForSelector('#email');
    assert.equal((await context.cookies()).some((c) => c.name === 'docintel_console'), false);
  });
  await step('no page had a script error or a Content-Security-Policy refusal', () => {
    assert.deepEqual(pageErrors.filter((e) => !/status of 40[34]/.test(e)), []);
  });
  console.log(`${tally.passed} passed`);
} catch (e) {
  exitCode = 1;
  console.log(e.stack || String(e));
  if (typeof serverLogTail === 'function') console.log(serverLogTail());
} finally {
  for (const c of cleanups.reverse()) {
    try { await c(); } catch { /* best effort */ }
  }
}
process.exit(exitCode);

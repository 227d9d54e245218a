// End-to-end OAuth with real clients against a real docintel-server process:
// openid-client does discovery → dynamic registration → PKCE authorization URL; playwright-core
// drives Debian chromium through the login, e-mail code and consent pages (the code comes from
// an SMTP server this test runs on loopback); then token → REST call → refresh → revoke → the
// REST call fails. The same for the MCP resource (an MCP `initialize` with the token → refresh →
// revoke → the MCP call fails; REST refuses the MCP token and MCP the REST token). Then an
// administrator signs in to the /admin pages in chromium (same login and e-mail-code pages),
// approves the user's pending access request, and the user's next sign-in carries the scope.
//
// Environment: DOCINTEL_TEST_DATABASE_URL (any database on the test Postgres), DOCINTEL_SERVER_BIN,
// DOCINTEL_ADMIN_BIN, OAUTH_E2E_SCREENSHOTS (folder for the page screenshots), CHROMIUM
// (default /usr/bin/chromium).

import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import * as client from 'openid-client';
import { chromium } from 'playwright-core';

import { env, freePort, steps, withDatabase } from './harness.mjs';

const baseDbUrl = env('DOCINTEL_TEST_DATABASE_URL');
const serverBin = env('DOCINTEL_SERVER_BIN');
const adminBin = env('DOCINTEL_ADMIN_BIN');
const shotDir = env('OAUTH_E2E_SCREENSHOTS', path.resolve('oauth-e2e-screenshots'));
const chromiumPath = env('CHROMIUM', '/usr/bin/chromium');
const { step, tally } = steps();


// ---- a tiny SMTP server that keeps the messages it receives -------------------------------
function startSmtp() {
  const messages = [];
  const waiters = [];
  const server = net.createServer((socket) => {
    socket.setEncoding('utf8');
    let buffer = '';
    let inData = false;
    let message = '';
    socket.write('220 e2e-smtp ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk;
      let nl;
      while ((nl = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            messages.push(message);
            message = '';
            waiters.splice(0).forEach((w) => w());
            socket.write('250 queued\r\n');
          } else {
            message += line + '\n';
          }
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250 e2e-smtp\r\n');
        else if (verb === 'DATA') { inData = true; socket.write('354 go ahead\r\n'); }
        else if (verb === 'QUIT') { socket.end('221 bye\r\n'); }
        else { if (verb === 'RCPT') message += line + '\n'; socket.write('250 ok\r\n'); }
      }
    });
    socket.on('error', () => {});
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    port: server.address().port,
    close: () => server.close(),
    // The 6-digit code of the newest message to `to` after `count` messages, waiting up to 15 s.
    async codeFor(to, count) {
      const deadline = Date.now() + 15000;
      for (;;) {
        for (let i = messages.length - 1; i >= count; i -= 1) {
          const m = messages[i].match(/sign-in code is ([0-9]{6})/);
          if (m && messages[i].includes(to)) return m[1];
        }
        if (Date.now() > deadline) throw new Error('no sign-in e-mail arrived');
        await new Promise((r) => { waiters.push(r); setTimeout(r, 200); });
      }
    },
    count: () => messages.length,
  })));
}

// ---- the OAuth client's redirect target -------------------------------------------------
function startCallback() {
  const hits = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url);
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>signed in</title><p>You can close this window.</p>');
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${server.address().port}/callback`,
    hits,
    close: () => server.close(),
  })));
}

async function waitReady(base, child) {
  const deadline = Date.now() + 60000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`docintel-server exited with ${child.exitCode}`);
    try {
      const r = await fetch(`${base}/readyz`);
      if (r.ok) return;
    } catch { /* not yet listening */ }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('docintel-server did not become ready');
}

async function restStatus(base, token) {
  const r = await fetch(`${base}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } });
  return { status: r.status, body: await r.json() };
}

// An MCP `initialize` request (streamable HTTP) with a bearer token: { status, body }.
async function mcpInitialize(mcpUrl, token) {
  const r = await fetch(mcpUrl, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0', id: 1, method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'oauth-e2e', version: '1' } },
    }),
  });
  const text = await r.text();
  let body = text;
  const data = text.match(/^data: (.*)$/m);
  try { body = JSON.parse(data ? data[1] : text); } catch { /* not JSON */ }
  return { status: r.status, body };
}

async function untilRefused(base, token) {
  const deadline = Date.now() + 5000;
  let last;
  while (Date.now() < deadline) {
    last = await restStatus(base, token);
    if (last.status === 401) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  return last;
}

// ---- the run -------------------------------------------------------------------------------
const dbName = `docintel_e2e_oauth_${randomBytes(4).toString('hex')}`;
const adminDb = withDatabase(baseDbUrl, 'postgres');
const dbUrl = withDatabase(baseDbUrl, dbName);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docintel-oauth-e2e-'));
const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docintel-oauth-chromium-'));
fs.mkdirSync(shotDir, { recursive: true });

const cleanups = [];
let exitCode = 0;
try {
  execFileSync('psql', [adminDb, '-qc', `CREATE DATABASE ${dbName}`]);
  cleanups.push(() => execFileSync('psql', [adminDb, '-qc', `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`]));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  cleanups.push(() => fs.rmSync(userDataDir, { recursive: true, force: true }));

  const smtp = await startSmtp();
  cleanups.push(() => smtp.close());
  const callback = await startCallback();
  cleanups.push(() => callback.close());
  const port = await freePort();
  const mcpPort = await freePort();
  const base = `http://localhost:${port}`;
  const serverEnv = {
    ...process.env,
    DOCINTEL_DATABASE_URL: dbUrl,
    DOCINTEL_DATA_DIR: dataDir,
    DOCINTEL_PLUGINS_DIR: path.join(dataDir, 'plugins'),
    DOCINTEL_HOST: '127.0.0.1',
    DOCINTEL_PORT: String(port),
    DOCINTEL_BASE_URL: base,
    DOCINTEL_MCP_PORT: String(mcpPort),
    DOCINTEL_SMTP_HOST: '127.0.0.1',
    DOCINTEL_SMTP_PORT: String(smtp.port),
    DOCINTEL_SMTP_FROM: 'docintel@e2e.test',
  };
  const server = spawn(serverBin, ['--role', 'api'], { env: serverEnv, stdio: ['ignore', 'ignore', 'pipe'] });
  const serverLog = [];
  server.stderr.on('data', (d) => serverLog.push(d.toString()));
  cleanups.push(() => server.kill('SIGTERM'));
  await step('docintel-server starts', () => waitReady(base, server));

  const email = 'person@e2e.test';
  const password = 'e2e correct horse battery';
  const admin = (...args) => execFileSync(adminBin, args, { env: serverEnv }).toString();
  await step('administrator creates the user, grants scopes and turns MFA on', () => {
    admin('user', 'create', '--email', email, '--password', password);
    admin('user', 'grant', '--email', email, '--scope', 'workspaces:read documents:read');
    const out = JSON.parse(admin('user', 'mfa', '--email', email, 'on'));
    assert.equal(out.mfa_enabled, true);
  });

  const config = await step('openid-client: discovery and dynamic registration', async () => {
    const c = await client.dynamicClientRegistration(new URL(base), {
      client_name: 'e2e openid-client',
      redirect_uris: [callback.url],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    }, client.None(), { algorithm: 'oauth2', execute: [client.allowInsecureRequests] });
    const m = c.serverMetadata();
    assert.equal(m.issuer, base);
    assert.deepEqual(m.code_challenge_methods_supported, ['S256']);
    assert.ok(c.clientMetadata().client_id.startsWith('dic_'));
    return c;
  });
  const rest = `${base}/api/v1`;
  const prmMcp = await (await fetch(`${base}/.well-known/oauth-protected-resource/mcp`)).json();
  assert.ok(prmMcp.authorization_servers.includes(base));
  const mcp = prmMcp.resource;

  const browser = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  cleanups.push(() => browser.close());

  // One browser authorization: returns the tokens.
  async function signIn(resource, label, screenshots, scope = 'workspaces:read documents:read',
    pendingShot = null) {
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: callback.url,
      scope,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      resource,
    });
    const page = await browser.newPage();
    try {
      await step(`${label}: login page`, async () => {
        await page.goto(url.href);
        await page.waitForSelector('#email');
        if (screenshots) await page.screenshot({ path: path.join(shotDir, '1-login.png'), fullPage: true });
        await page.fill('#email', email);
        await page.fill('#password', password);
        const mails = smtp.count();
        await page.click('#sign-in');
        await page.waitForSelector('#code');
        if (screenshots) await page.screenshot({ path: path.join(shotDir, '2-mfa.png'), fullPage: true });
        page.mfaCode = await smtp.codeFor(email, mails);
      });
      await step(`${label}: e-mail code from the SMTP server`, async () => {
        await page.fill('#code', page.mfaCode);
        await page.click('#verify');
        await page.waitForSelector('#approve');
        const text = await page.textContent('#scopes');
        assert.match(text, /workspaces:read/);
        assert.match(text, /documents:read/);
        if (screenshots) await page.screenshot({ path: path.join(shotDir, '3-consent.png'), fullPage: true });
        if (pendingShot) {
          assert.match(await page.textContent('#pending'), new RegExp(pendingShot.scope));
          assert.ok(await page.isVisible('#pending'), 'the pending access request is shown');
          await page.screenshot({ path: path.join(shotDir, pendingShot.file), fullPage: true });
        }
      });
      const redirected = await step(`${label}: consent redirects back with a code`, async () => {
        await Promise.all([page.waitForURL((u) => u.href.startsWith(callback.url)), page.click('#approve')]);
        const u = new URL(page.url());
        assert.ok(u.searchParams.get('code'));
        assert.equal(u.searchParams.get('state'), state);
        return u;
      });
      return await step(`${label}: code + PKCE verifier exchanged at /token`, async () => {
        const tokens = await client.authorizationCodeGrant(config, redirected,
          { pkceCodeVerifier: verifier, expectedState: state }, { resource });
        assert.equal(tokens.token_type.toLowerCase(), 'bearer');
        assert.equal(tokens.expires_in, 900);
        assert.ok(tokens.refresh_token);
        return tokens;
      });
    } finally {
      await page.close();
    }
  }

  const tokens = await signIn(rest, 'REST', true);
  await step('REST call with the access token', async () => {
    const r = await restStatus(base, tokens.access_token);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.email, email);
    assert.deepEqual(r.body.scopes.sort(), ['documents:read', 'workspaces:read']);
  });
  const refreshed = await step('refresh rotates the refresh token', async () => {
    const t = await client.refreshTokenGrant(config, tokens.refresh_token);
    assert.notEqual(t.refresh_token, tokens.refresh_token);
    assert.equal((await restStatus(base, t.access_token)).status, 200);
    return t;
  });
  await step('revoke the refresh token: its family\'s access tokens stop at the REST boundary', async () => {
    await client.tokenRevocation(config, refreshed.refresh_token);
    const r = await untilRefused(base, refreshed.access_token);
    assert.equal(r.status, 401, JSON.stringify(r.body));
    await assert.rejects(client.refreshTokenGrant(config, refreshed.refresh_token),
      (e) => e.error === 'invalid_grant');
  });

  const mcpTokens = await signIn(mcp, 'MCP', false);
  await step('MCP initialize with the MCP token', async () => {
    const r = await mcpInitialize(mcp, mcpTokens.access_token);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.ok(r.body.result && r.body.result.protocolVersion, JSON.stringify(r.body));
  });
  await step('the MCP token is refused by REST, the REST token by MCP', async () => {
    const r = await restStatus(base, mcpTokens.access_token);
    assert.equal(r.status, 401);
    const other = await signIn(rest, 'REST (for MCP)', false);
    assert.equal((await mcpInitialize(mcp, other.access_token)).status, 401);
    await client.tokenRevocation(config, other.refresh_token);
  });
  await step('MCP refresh, revoke, and the MCP call now fails', async () => {
    const t = await client.refreshTokenGrant(config, mcpTokens.refresh_token);
    assert.notEqual(t.refresh_token, mcpTokens.refresh_token);
    assert.equal((await mcpInitialize(mcp, t.access_token)).status, 200);
    await client.tokenRevocation(config, t.refresh_token);
    const deadline = Date.now() + 5000;
    let status;
    while (Date.now() < deadline) {
      status = (await mcpInitialize(mcp, t.access_token)).status;
      if (status === 401) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(status, 401, 'the revoked MCP token still works');
    assert.equal((await mcpInitialize(mcp, mcpTokens.access_token)).status, 401);
    await assert.rejects(client.refreshTokenGrant(config, t.refresh_token),
      (e) => e.error === 'invalid_grant');
  });

  // ---- an access request approved by an administrator on the /admin pages ----------------
  const pendingTokens = await signIn(rest, 'access request', false,
    'workspaces:read documents:read workspaces:write',
    { scope: 'workspaces:write', file: '4-consent-pending-request.png' });
  await step('the token lacks the requested scope until an administrator approves it', async () => {
    const r = await restStatus(base, pendingTokens.access_token);
    assert.deepEqual(r.body.scopes.sort(), ['documents:read', 'workspaces:read']);
  });
  const adminEmail = 'admin@e2e.test';
  const adminPassword = 'e2e administrator password';
  await step('administrator account with e-mail codes', () => {
    admin('user', 'create', '--email', adminEmail, '--password', adminPassword, '--admin');
    admin('user', 'mfa', '--email', adminEmail, 'on');
  });
  const adminPage = await browser.newPage();
  try {
    await step('admin pages: sign in through the same login and e-mail code pages', async () => {
      await adminPage.goto(`${base}/admin`);
      await adminPage.waitForSelector('#email');
      await adminPage.fill('#email', adminEmail);
      await adminPage.fill('#password', adminPassword);
      const mails = smtp.count();
      await adminPage.click('#sign-in');
      await adminPage.waitForSelector('#code');
      await adminPage.fill('#code', await smtp.codeFor(adminEmail, mails));
      await Promise.all([adminPage.waitForURL(/\/admin\/access-requests/), adminPage.click('#verify')]);
      assert.match(await adminPage.textContent('h1'), /Access requests/);
    });
    await step('admin pages: approve the pending access request', async () => {
      const row = adminPage.locator('#requests tr', { hasText: 'workspaces:write' });
      assert.match(await row.textContent(), new RegExp(email));
      await adminPage.screenshot({ path: path.join(shotDir, '5-admin-access-requests.png'), fullPage: true });
      await Promise.all([adminPage.waitForURL(/done=approved/), row.locator('button.approve').click()]);
      assert.match(await adminPage.textContent('#notice'), /approved/);
      assert.equal(await adminPage.locator('#requests tr', { hasText: 'workspaces:write' }).count(), 0);
      await adminPage.screenshot({ path: path.join(shotDir, '6-admin-approved.png'), fullPage: true });
    });
    await step('admin pages: users and applications (secret shown once)', async () => {
      await adminPage.click('#nav-users');
      await adminPage.waitForSelector('#users');
      assert.match(await adminPage.textContent('#users'), new RegExp(email));
      await adminPage.screenshot({ path: path.join(shotDir, '7-admin-users.png'), fullPage: true });
      await adminPage.click('#nav-applications');
      await adminPage.waitForSelector('#create-application');
      await adminPage.fill('#name', 'e2e nightly export');
      await adminPage.check('input[name=scope][value="documents:read"]');
      await adminPage.fill('#cidrs', '127.0.0.1/32, ::1/128');
      await Promise.all([adminPage.waitForSelector('#client-secret'), adminPage.click('#create')]);
      const clientId = (await adminPage.textContent('#client-id')).trim();
      const secret = (await adminPage.textContent('#client-secret')).trim();
      await adminPage.screenshot({ path: path.join(shotDir, '8-admin-application-secret.png'), fullPage: true });
      const t = await fetch(`${base}/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
        },
        body: new URLSearchParams({ grant_type: 'client_credentials', resource: rest }),
      });
      assert.equal(t.status, 200, await t.clone().text());
      await adminPage.click('#done');
      await adminPage.waitForSelector('#rotate');
      assert.ok(!(await adminPage.content()).includes(secret), 'the secret is shown again');
      await adminPage.screenshot({ path: path.join(shotDir, '9-admin-application.png'), fullPage: true });
    });
  } finally {
    await adminPage.close();
  }
  await step('the user\'s next sign-in carries the approved scope; the old token never gains it', async () => {
    const again = await signIn(rest, 'after approval', false, 'workspaces:read documents:read workspaces:write');
    const r = await restStatus(base, again.access_token);
    assert.deepEqual(r.body.scopes.sort(), ['documents:read', 'workspaces:read', 'workspaces:write']);
    const old = await client.refreshTokenGrant(config, pendingTokens.refresh_token);
    assert.deepEqual((await restStatus(base, old.access_token)).body.scopes.sort(),
      ['documents:read', 'workspaces:read']);
  });
  await step('no code or token in the server log', () => {
    const log = serverLog.join('');
    for (const secret of [tokens.access_token, tokens.refresh_token, refreshed.refresh_token,
      mcpTokens.access_token]) {
      assert.ok(!log.includes(secret), 'a token appears in the server log');
    }
    assert.ok(!/code=/.test(log), 'an authorization code appears in the server log');
  });
  console.log(`screenshots of the login, MFA, consent and administration pages: ${shotDir}`);
} catch (e) {
  exitCode = 1;
  if (!tally.failed) console.log(`FAIL set-up: ${e.stack || e}`);
} finally {
  for (const c of cleanups.reverse()) {
    try { await c(); } catch { /* best effort */ }
  }
}
console.log(`${tally.passed} passed, ${tally.failed} failed`);
process.exit(exitCode || (tally.failed ? 1 : 0));

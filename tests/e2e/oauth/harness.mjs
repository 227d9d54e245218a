// What the browser tests (tests/e2e/oauth, tests/e2e/console) share: settings from the
// environment, named steps with a tally, free ports and database URLs.
import net from 'node:net';

/** The environment variable `name`, else `fallback`; throws when neither is set. */
export const env = (name, fallback) => {
  const v = process.env[name] || fallback;
  if (!v) throw new Error(`${name} is not set`);
  return v;
};

/** Steps that print `ok`/`FAIL` with their time; `tally` counts them. */
export function steps() {
  const tally = { passed: 0, failed: 0 };
  async function step(name, fn) {
    const started = Date.now();
    try {
      const out = await fn();
      tally.passed += 1;
      console.log(`ok   ${name} (${Date.now() - started} ms)`);
      return out;
    } catch (e) {
      tally.failed += 1;
      console.log(`FAIL ${name}: ${e.stack || e}`);
      throw e;
    }
  }
  return { step, tally };
}

/** A TCP port free on 127.0.0.1 when asked. */
export function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

/** `url` (a Postgres URL) naming database `name` instead. */
export function withDatabase(url, name) {
  const u = new URL(url);
  u.pathname = '/' + name;
  return u.toString();
}

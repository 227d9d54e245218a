// A loopback reverse proxy for the conformance run: the suite sends no token, so this adds the
// MCP-audience token from MCP_PROXY_TOKEN to every request and passes everything else (Host,
// Origin, bodies, SSE streams) through unchanged. The server's DOCINTEL_MCP_URL is this proxy's
// URL, as it would be behind a real reverse proxy.
// Usage: MCP_PROXY_TOKEN=... node proxy.mjs <listen port> <server MCP port>
import http from "node:http";

const [listenPort, targetPort] = process.argv.slice(2).map(Number);
const token = process.env.MCP_PROXY_TOKEN;
if (!listenPort || !targetPort || !token) {
  console.error("usage: MCP_PROXY_TOKEN=... node proxy.mjs <listen port> <target port>");
  process.exit(2);
}

const forward = (req, res) => {
  const headers = { ...req.headers, authorization: `Bearer ${token}` };
  const upstream = http.request(
    { host: "127.0.0.1", port: targetPort, method: req.method, path: req.url, headers },
    (answer) => {
      res.writeHead(answer.statusCode, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on("error", (e) => {
    res.writeHead(502, { "content-type": "text/plain" });
    res.end(`proxy: ${e.message}`);
  });
  req.pipe(upstream);
};

// "localhost" may resolve to either loopback address: listen on both.
for (const host of ["127.0.0.1", "::1"]) {
  const server = http.createServer(forward);
  server.on("error", (e) => {
    if (host === "127.0.0.1") throw e;  // IPv6 loopback may be missing; IPv4 may not
  });
  server.listen(listenPort, host);
}

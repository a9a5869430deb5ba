// Baton serving HTTPS itself: what `npm start` runs (scripts/run.sh) when BATON_TLS_CERT and BATON_TLS_KEY
// are set. `next start` has no TLS, so this is Next.js's own request handler (a custom server, `next()`)
// in a node https server, doing what `next start` does around it:
// - NODE_ENV and NEXT_RUNTIME as `next start` sets them (instrumentation.ts runs startup() only under
//   the nodejs runtime);
// - startup() (lib/startup.ts, from instrumentation.ts) checks the configuration, the two PEM files
//   included, and prepares the database, then hands over the checked certificate and key: only then
//   does this server listen. A problem stops the start there with one line, before any connection.
//   (Next.js's prepare() resolves before instrumentation's register() has finished, so it is no signal.)
// - SIGTERM/SIGINT: stop accepting, let requests in flight finish, close Next.js, exit 143/130 (and
//   lib/process/graceful-shutdown.ts writes the buffers before that exit).
// Plain JavaScript: runs as it is, with no build step of its own.
import { createServer } from "node:https";
import { fileURLToPath } from "node:url";
import next from "next";

process.env.NODE_ENV ||= "production";
process.env.NEXT_RUNTIME = "nodejs";

const dir = fileURLToPath(new URL("..", import.meta.url));
const port = Number(process.env.PORT || 3000);
const hostname = process.env.BATON_HOST || "0.0.0.0";

// lib/startup.ts calls this with { cert, key }; its absence there means `next start`, which it refuses.
const checked = new Promise((resolve) => {
  globalThis[Symbol.for("baton.httpsServer")] = resolve;
});
const app = next({ dev: false, dir, hostname, port });
await app.prepare();
const handle = app.getRequestHandler();
const { cert, key } = await checked;

const server = createServer({ cert, key }, (req, res) => {
  handle(req, res).catch((error) => {
    console.error(`baton: failed to handle ${req.method} ${req.url}`, error);
    if (!res.headersSent) res.statusCode = 500;
    res.end();
  });
});
server.on("error", (error) => {
  console.error(`baton: cannot serve HTTPS on ${hostname}:${port}: ${error.message}`);
  process.exit(1);
});
server.listen(port, hostname, () => {
  console.log(`baton: serving HTTPS at https://${hostname === "0.0.0.0" ? "localhost" : hostname}:${port}`);
});

let stopping = false;
function stop(signal) {
  if (stopping) return;
  stopping = true;
  server.close(() => {
    app
      .close()
      .catch((error) => console.error(error))
      .finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
  });
}
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));

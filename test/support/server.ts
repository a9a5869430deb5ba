import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { send } from "./page-form";
import type { TestTls } from "./test-ca";

export const ROOT = path.resolve(import.meta.dirname, "../..");
const NEXT_BIN = path.join(ROOT, "node_modules/next/dist/bin/next");
/** What `npm start` runs with BATON_TLS_CERT and BATON_TLS_KEY (scripts/run.sh). */
const HTTPS_SERVER = path.join(ROOT, "scripts/https-server.mjs");

export function tempDir(prefix = "baton-test-"): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  // A hook's detached worker may still be writing in a HOME under the folder (ENOTEMPTY while it is
  // removed): rmSync retries, waiting a little longer each time.
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }) };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

export type RunningServer = {
  url: string;
  port: number;
  databaseUrl: string;
  process: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
};

/** How many ports startServer tries: a free port found may be taken by another test's server before this one listens on it. */
const PORT_ATTEMPTS = 3;

/**
 * Starts the real built server (`next start`, the same as production) in its own process group on a
 * free port, and waits until /api/health answers. Needs `npm run build` first. A port found free may be
 * taken by a server another test starts at the same moment: the server then fails to listen
 * (EADDRINUSE) and is started again on another port, and until it says it listens (its own "Ready" line)
 * an answer on the port may be that other server's, so none is trusted before.
 */
export async function startServer(options: { databaseUrl: string; env?: Record<string, string>; listen?: string; tls?: TestTls; nodeArgs?: string[] }): Promise<RunningServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOn(await freePort(), options);
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt >= PORT_ATTEMPTS) throw error;
    }
  }
}

class PortTaken extends Error {}

/** What a server prints once it listens: `next start`'s ("✓ Ready in …", coloured under FORCE_COLOR), and Baton's HTTPS server's (scripts/https-server.mjs). */
const LISTENING = /Ready in|baton: serving HTTPS at/;

async function startOn(port: number, options: Parameters<typeof startServer>[0]): Promise<RunningServer> {
  // `listen: "0.0.0.0"` as `npm start` does, for a request that must come from another address.
  const listen = options.listen ?? "127.0.0.1";
  const { tls } = options;
  // `nodeArgs`: Node's own flags (a bench's --cpu-prof, which NODE_OPTIONS may not carry).
  const args = [...(options.nodeArgs ?? []), ...(tls ? [HTTPS_SERVER] : [NEXT_BIN, "start", "-p", String(port), "-H", listen])];
  const tlsEnv = tls ? { PORT: String(port), BATON_HOST: listen, BATON_TLS_CERT: tls.certFile, BATON_TLS_KEY: tls.keyFile } : {};
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    detached: true,
    env: { ...cleanEnv(), DATABASE_URL: options.databaseUrl, NEXT_TELEMETRY_DISABLED: "1", ...tlsEnv, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const url = `${tls ? "https" : "http"}://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      return;
    }
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // already gone
    }
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) {
      if (/EADDRINUSE/.test(output)) throw new PortTaken(`port ${port} taken`);
      throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    }
    try {
      if (LISTENING.test(output) && (tls ? (await send(port, "/api/health", { ca: tls.ca })).status === 200 : (await fetch(`${url}/api/health`)).ok)) break;
    } catch {
      // not answering yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`server did not become ready:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, port, databaseUrl: options.databaseUrl, process: child, output: () => output, stop };
}

/**
 * The environment without the outer server's or CI's Baton settings, so each test says what it uses
 * (PAI_DIR too: under PAI the hook asks for the context without identity).
 */
export function cleanEnv(): NodeJS.ProcessEnv {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || k.startsWith("BATON_") || k.startsWith("DATABASE_") || k === "PORT" || k === "NODE_ENV" || k === "PAI_DIR") continue;
    env[k] = v;
  }
  return env as NodeJS.ProcessEnv;
}

/**
 * Starts a server that must refuse to start, `next start` or Baton's own HTTPS server (what `npm start`
 * runs with BATON_TLS_CERT and BATON_TLS_KEY), with `env`, and returns how it ended: its exit code, the
 * `baton:` lines it printed, all it printed. Killed after 20 s.
 */
export async function refusedStart(env: Record<string, string>, command: "next start" | "https server" = "next start"): Promise<{ code: number | null; lines: string[]; stderr: string }> {
  const args = command === "https server" ? [HTTPS_SERVER] : [NEXT_BIN, "start", "-p", "0"];
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...cleanEnv(), NEXT_TELEMETRY_DISABLED: "1", ...env } });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.on("exit", (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  return { code, lines: stderr.trim().split("\n").filter((l) => l.includes("baton:")), stderr };
}

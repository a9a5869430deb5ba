import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, expect } from "vitest";
import { cleanEnv, ROOT } from "./server";

const BATON = path.join(ROOT, "cli/bin/baton.mjs");

export type Message = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
export type BridgeExit = { code: number | null; messages: Message[]; stderr: string; ms: number };
export type Bridge = { send: (message: unknown) => void; end: () => void; stdout: () => string; done: Promise<BridgeExit> };

export const initialize = (id: number | string = 1) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});
export const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };
export const request = (id: number | string, method: string, params: Record<string, unknown> = {}) => ({ jsonrpc: "2.0", id, method, params });

/**
 * `baton mcp` (the stdio bridge) run as a child process from a home folder of its own, made in
 * beforeAll; the official clients it connects are closed in afterAll. For one test file.
 */
export function mcpBridge(home: string) {
  const clients: Client[] = [];
  beforeAll(() => mkdirSync(home, { recursive: true }));
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
  });

  /** The bridge's environment: nothing from the outer shell's Baton settings, a home of its own. */
  function bridgeEnv(over: Record<string, string | undefined>): Record<string, string> {
    const env: Record<string, string | undefined> = { HOME: home, XDG_CONFIG_HOME: path.join(home, ".config"), PATH: process.env.PATH, ...over };
    return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
  }

  /** The official client talking to `node cli/bin/baton.mjs mcp` over its stdin and stdout. */
  async function connect(env: Record<string, string>, era: "legacy" | "auto" = "legacy") {
    const transport = new StdioClientTransport({ command: process.execPath, args: [BATON, "mcp"], env, cwd: home, stderr: "pipe" });
    let stderr = "";
    transport.stderr?.on("data", (d) => (stderr += d));
    const client = new Client({ name: "baton-stdio-test", version: "1.0.0" }, { versionNegotiation: { mode: era } });
    clients.push(client);
    await client.connect(transport);
    return { client, stderr: () => stderr };
  }

  /** The bridge driven by hand, line by line; every line it prints must be JSON-RPC. */
  function spawnBridge(env: Record<string, string>, args: string[] = []): Bridge {
    const started = performance.now();
    const child = spawn(process.execPath, [BATON, "mcp", ...args], { cwd: home, env: { ...cleanEnv(), ...env }, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const done = new Promise<BridgeExit>((resolve, reject) => {
      child.on("error", reject);
      child.on("close", (code) => {
        const lines = stdout.split("\n").filter((line) => line !== "");
        const messages = lines.map((line) => JSON.parse(line) as Message);
        for (const m of messages) expect(m.jsonrpc, `stdout line ${JSON.stringify(m)}`).toBe("2.0");
        resolve({ code, messages, stderr, ms: performance.now() - started });
      });
    });
    return {
      send: (message) => child.stdin.write(typeof message === "string" ? message : `${JSON.stringify(message)}\n`),
      end: () => child.stdin.end(),
      stdout: () => stdout,
      done,
    };
  }

  async function runBridge(env: Record<string, string>, messages: unknown[]) {
    const bridge = spawnBridge(env);
    for (const m of messages) bridge.send(m);
    bridge.end();
    return bridge.done;
  }

  return { bridgeEnv, connect, spawnBridge, runBridge };
}

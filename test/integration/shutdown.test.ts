import http from "node:http";
import { describe, expect, it } from "vitest";
import { hashToken } from "@/lib/auth/api-tokens";
import { apiClient } from "../support/api";
import { send } from "../support/page-form";
import { startServer, type RunningServer } from "../support/server";
import { testWorld } from "../support/world";

// The world's own server builds the cast; each test starts another on the same database and stops it.
// anaSpare is used first by the bookkeeping test: its last-used time is written only at the stop.
const world = testWorld({ users: ["ana"], projects: { alpha: "ana" }, members: [], tokens: { anaSpare: { user: "ana" } } });

// next start exits with 128 + the signal's number once it has shut down cleanly.
const SIGTERM_EXIT_CODE = 143;
// Time for the server to read a request's headers before the signal, so the request is in flight.
const SETTLE_MS = 1000;
// The buffered bookkeeping (served log, token last-used times, rate-limit counts) is written at most this long after its first item.
const FLUSH_MS = 1000;

function sigterm(server: RunningServer): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => server.process.once("exit", (code) => resolve(code)));
  process.kill(-server.process.pid!, "SIGTERM");
  return exited;
}

async function count(sql: string): Promise<number> {
  return Number((await world.sql(sql))[0]!.n);
}

describe("graceful shutdown (SIGTERM)", () => {
  it("finishes a request in flight, then exits", async () => {
    const server = await startServer({ databaseUrl: world.databaseUrl });
    try {
      const body = JSON.stringify({ kind: "pattern", content: "Written while the server was stopping" });
      const url = new URL(server.url);
      let answer: { status: number; text: string } | undefined;
      const request = http.request({
        host: url.hostname,
        port: url.port,
        method: "POST",
        path: "/api/learnings",
        headers: { authorization: `Bearer ${world.tokens.ana}`, "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      });
      const answered = new Promise<void>((resolve, reject) => {
        request.on("response", (res) => {
          let text = "";
          res.on("data", (c) => (text += c));
          res.on("end", () => resolve(void (answer = { status: res.statusCode!, text })));
        });
        request.on("error", reject);
      });
      // Half the body now, the rest after the signal: the server is mid-request when it is told to stop.
      request.write(body.slice(0, body.length / 2));
      await new Promise((r) => setTimeout(r, SETTLE_MS));
      const exited = sigterm(server);
      // Once the signal is handled, it no longer takes new connections (each probe a connection of its
      // own: a kept-alive one would still be answered) …
      const probe = () => send(server.port, "/api/health", { headers: { connection: "close" } }).then(() => "answered", () => "refused");
      await expect.poll(probe, { timeout: 15_000 }).toBe("refused");
      // … but the request it had is answered, and written.
      request.end(body.slice(body.length / 2));
      await answered;
      expect(answer?.status, answer?.text).toBe(201);
      expect(await exited).toBe(SIGTERM_EXIT_CODE);
      expect(await count("SELECT count(*) AS n FROM learnings WHERE content = 'Written while the server was stopping'")).toBe(1);
    } finally {
      await server.stop();
    }
  }, 60_000);

  it("writes the buffered bookkeeping, token last-used times and rate-limit counts before it exits", async () => {
    const server = await startServer({ databaseUrl: world.databaseUrl });
    try {
      const ana = apiClient(server.url, world.tokens.ana);
      const spare = apiClient(server.url, world.tokens.anaSpare);
      const spareUsed = async () => Number((await world.sql("SELECT count(*) AS n FROM api_tokens WHERE token_hash = ? AND last_used_at IS NOT NULL", [await hashToken(world.tokens.anaSpare!)]))[0]!.n);
      const loggedBefore = await count("SELECT count(*) AS n FROM context_log");
      const countedBefore = await count("SELECT coalesce(sum(count), 0) AS n FROM rate_limit_counts");
      const started = Date.now();
      expect((await ana("GET", "/api/context?project=alpha")).status).toBe(200);
      expect((await spare("GET", "/api/projects")).status).toBe(200);
      // Buffered, not yet written: all three are written at most FLUSH_MS after their first item, which
      // came after `started`. So these reads show the buffers unwritten only if they ended before then:
      // on a loaded machine they may not have, and then only the writes at the stop are checked.
      const buffered = [await spareUsed(), await count("SELECT count(*) AS n FROM context_log"), await count("SELECT coalesce(sum(count), 0) AS n FROM rate_limit_counts")];
      if (Date.now() - started < FLUSH_MS) expect(buffered).toEqual([0, loggedBefore, countedBefore]);
      expect(await sigterm(server)).toBe(SIGTERM_EXIT_CODE);
      expect(await count("SELECT count(*) AS n FROM context_log")).toBe(loggedBefore + 1);
      expect(await spareUsed()).toBe(1);
      expect(await count("SELECT coalesce(sum(count), 0) AS n FROM rate_limit_counts")).toBe(countedBefore + 2);
    } finally {
      await server.stop();
    }
  }, 60_000);
});

import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { initialize, initialized, mcpBridge, request, type Message } from "../support/mcp-bridge";
import { tempDir } from "../support/server";

// `baton mcp` against a stub server playing the answer shapes the real server never sends (JSON
// bodies, chunked or lingering event streams, redirects, 500s), and the headers the bridge sends.
const tmp = tempDir("baton-cli-mcp-stub-");
const { bridgeEnv, spawnBridge, runBridge } = mcpBridge(path.join(tmp.dir, "home"));
afterAll(() => tmp.remove());

type Seen = { headers: IncomingHttpHeaders; body: Message; closed: Promise<void> };

/** A stand-in for the server, answering each POST as the test says. */
async function stub(answer: (body: Message, res: ServerResponse, req: IncomingMessage) => void) {
  const seen: Seen[] = [];
  const http = createServer((req, res) => {
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      const body = JSON.parse(raw) as Message;
      seen.push({ headers: req.headers, body, closed: new Promise((resolve) => res.once("close", () => resolve())) });
      answer(body, res, req);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

const result = (id: unknown, value: Record<string, unknown>) => JSON.stringify({ jsonrpc: "2.0", id, result: value });
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("answer shapes and headers, against a stub server", () => {
  it("sends the token, both Accept types and no Origin; MCP-Protocol-Version from the initialize answer on; forwards JSON bodies", async () => {
    const s = await stub((body, res) => {
      if (!("id" in body)) return res.writeHead(202).end();
      res.writeHead(200, { "content-type": "application/json" });
      res.end(result(body.id, body.method === "initialize" ? { protocolVersion: "2025-03-26", capabilities: {}, serverInfo: { name: "stub", version: "1" } } : {}));
    });
    try {
      const bridge = spawnBridge(bridgeEnv({ BATON_URL: s.url, BATON_TOKEN: "tok" }));
      bridge.send(initialize(1));
      for (let i = 0; i < 250 && !bridge.stdout().includes('"id":1'); i++) await pause(20);
      bridge.send(initialized);
      bridge.send(request(2, "ping"));
      bridge.end();
      const { code, messages } = await bridge.done;
      expect(code).toBe(0);
      expect(messages).toEqual([
        { jsonrpc: "2.0", id: 1, result: expect.objectContaining({ protocolVersion: "2025-03-26" }) },
        { jsonrpc: "2.0", id: 2, result: {} },
      ]);
      const [init, note, ping] = ["initialize", "notifications/initialized", "ping"].map((method) => s.seen.find((x) => x.body.method === method));
      expect(init!.headers).toMatchObject({ authorization: "Bearer tok", accept: "application/json, text/event-stream", "content-type": "application/json" });
      for (const seen of s.seen) expect(seen.headers.origin).toBeUndefined();
      expect(init!.headers["mcp-protocol-version"]).toBeUndefined();
      expect(note!.headers["mcp-protocol-version"]).toBe("2025-03-26");
      expect(ping!.headers["mcp-protocol-version"]).toBe("2025-03-26");
    } finally {
      await s.close();
    }
  });

  it("a 2026-07-28 request carries MCP-Protocol-Version, Mcp-Method and Mcp-Name from its body (Base64 when not plain ASCII)", async () => {
    const s = await stub((body, res) => res.writeHead(200, { "content-type": "application/json" }).end(result(body.id, {})));
    try {
      const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28" };
      await runBridge(bridgeEnv({ BATON_URL: s.url, BATON_TOKEN: "tok" }), [
        request(1, "tools/call", { name: "search_learnings", arguments: {}, _meta: meta }),
        request(2, "resources/read", { uri: "baton://context/ünïcode", _meta: meta }),
      ]);
      const byId = (id: number) => s.seen.find((x) => x.body.id === id)!.headers;
      expect(byId(1)).toMatchObject({ "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "search_learnings" });
      expect(byId(2)).toMatchObject({ "mcp-method": "resources/read", "mcp-name": `=?base64?${Buffer.from("baton://context/ünïcode").toString("base64")}?=` });
    } finally {
      await s.close();
    }
  });

  it("reads event streams in odd chunks, forwards a notification that comes before the answer, and does not wait for a stream left open", async () => {
    const s = await stub(async (body, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      const stream = `: hello\r\nevent: message\r\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"working"}}\r\n\r\ndata: ${result(body.id, { ok: "yes" })}\r\n\r\n`;
      for (let i = 0; i < stream.length; i += 7) {
        res.write(stream.slice(i, i + 7));
        await pause(1);
      }
      // …and never end the response.
    });
    try {
      const { code, messages, ms } = await runBridge(bridgeEnv({ BATON_URL: s.url, BATON_TOKEN: "tok" }), [request(9, "tools/call", { name: "x" })]);
      expect(code).toBe(0);
      expect(messages).toEqual([
        { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "working" } },
        { jsonrpc: "2.0", id: 9, result: { ok: "yes" } },
      ]);
      expect(ms).toBeLessThan(10_000);
    } finally {
      await s.close();
    }
  });

  it.each([
    {
      name: "a 500 with a text body",
      answer: (res: ServerResponse) => res.writeHead(500, { "content-type": "text/plain" }).end("database on fire"),
      error: { code: -32000, message: "Baton refused the request (HTTP 500): database on fire", data: { httpStatus: 500 } },
    },
    {
      name: "a redirect (not followed: it would drop the POST or carry the token elsewhere)",
      answer: (res: ServerResponse) => res.writeHead(308, { location: "https://baton.example/api/mcp" }).end(),
      error: { code: -32000, message: expect.stringMatching(/redirects \(HTTP 308\) to https:\/\/baton.example\/api\/mcp: set BATON_URL/), data: { httpStatus: 308, reason: "redirect" } },
    },
    {
      name: "202 Accepted for a request",
      answer: (res: ServerResponse) => res.writeHead(202).end(),
      error: { code: -32000, message: expect.stringMatching(/sent no answer/), data: { reason: "no_answer" } },
    },
    {
      name: "an HTML page (a wrong BATON_URL)",
      answer: (res: ServerResponse) => res.writeHead(200, { "content-type": "text/html" }).end("<html>hi</html>"),
      error: { code: -32000, message: expect.stringMatching(/text\/html that is not JSON-RPC/), data: { reason: "bad_answer", httpStatus: 200 } },
    },
    {
      name: "an event stream that ends without the answer",
      answer: (res: ServerResponse) => res.writeHead(200, { "content-type": "text/event-stream" }).end(": nothing\n\n"),
      error: { code: -32000, message: expect.stringMatching(/ended its event stream without answering/), data: { reason: "no_answer" } },
    },
    {
      name: "a JSON-RPC error with id null (the server could not read the id)",
      answer: (res: ServerResponse) => res.writeHead(400, { "content-type": "application/json" }).end('{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Bad Request"}}'),
      error: { code: -32600, message: "Bad Request" },
    },
  ])("$name → a JSON-RPC error for the request", async ({ answer, error }) => {
    const s = await stub((_body, res) => answer(res));
    try {
      const { code, messages } = await runBridge(bridgeEnv({ BATON_URL: s.url, BATON_TOKEN: "tok" }), [request(3, "tools/list")]);
      expect(code).toBe(0);
      expect(messages).toEqual([{ jsonrpc: "2.0", id: 3, error }]);
    } finally {
      await s.close();
    }
  });

  it("notifications/cancelled aborts the request's POST, and the cancelled request gets no answer", async () => {
    const s = await stub((body, res) => {
      if (body.method === "tools/call") return res.writeHead(200, { "content-type": "text/event-stream" }).write(": thinking\n\n");
      res.writeHead(202).end();
    });
    try {
      const bridge = spawnBridge(bridgeEnv({ BATON_URL: s.url, BATON_TOKEN: "tok" }));
      bridge.send(request(11, "tools/call", { name: "slow" }));
      for (let i = 0; i < 100 && s.seen.length < 1; i++) await pause(20);
      bridge.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 11, reason: "user" } });
      bridge.end();
      const { code, messages } = await bridge.done;
      expect(code).toBe(0);
      expect(messages).toEqual([]);
      await s.seen[0]!.closed;
    } finally {
      await s.close();
    }
  });
});

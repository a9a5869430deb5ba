import { createServer, type Server } from "node:http";
import { Worker } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchWithin } from "@/lib/process/fetch-within";

describe("fetchWithin", () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === "/stall-after-headers") {
        res.writeHead(200, { "content-type": "application/json" });
        res.write('{"partial":');
        return; // never ends
      }
      if (req.url === "/empty") return void res.writeHead(204).end();
      if (req.url === "/never") return;
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        res.writeHead(418, { "content-type": "application/json", "x-kept": "yes" });
        res.end(JSON.stringify({ method: req.method, body, type: req.headers["content-type"] ?? null }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it("keeps an answer whole: status, headers, body", async () => {
    const res = await fetchWithin(`${base}/teapot`, { method: "POST", body: "{}" }, 5_000);
    expect(res.status).toBe(418);
    expect(res.headers.get("x-kept")).toBe("yes");
    expect(await res.json()).toEqual({ method: "POST", body: "{}", type: "text/plain;charset=UTF-8" });
  });

  it("sends a Request as it is: method, headers, body", async () => {
    const request = new Request(`${base}/teapot`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"a":1}' });
    const res = await fetchWithin(request, {}, 5_000);
    expect(await res.json()).toEqual({ method: "POST", body: '{"a":1}', type: "application/json" });
  });

  it("takes an answer with no body (204)", async () => {
    const res = await fetchWithin(`${base}/empty`, {}, 5_000);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
  });

  it("an answer that came while this process was busy past the limit is taken, not a timeout", async () => {
    // The server, in a thread of its own, says when it has the request and answers 50 ms later, while this one is blocked.
    const worker = new Worker(
      `const { parentPort } = require("node:worker_threads");
       const server = require("node:http").createServer((req, res) => { parentPort.postMessage("asked"); setTimeout(() => res.end("fresh"), 50); });
       server.listen(0, "127.0.0.1", () => parentPort.postMessage(server.address().port));`,
      { eval: true },
    );
    try {
      const port = await new Promise<number>((resolve) => worker.once("message", resolve));
      const asked = new Promise((resolve) => worker.once("message", resolve));
      const answer = fetchWithin(`http://127.0.0.1:${port}/`, {}, 200).then((r) => r.text(), (e: Error) => e.name);
      await asked;
      const until = performance.now() + 1_000; // a garbage collection, a large body parsed: the loop held past the limit
      while (performance.now() < until);
      expect(await answer).toBe("fresh");
    } finally {
      await worker.terminate();
    }
  });

  it.each(["/never", "/stall-after-headers"])("a server stalled at %s ends in a TimeoutError at the limit", async (path) => {
    const started = performance.now();
    const error = await fetchWithin(`${base}${path}`, {}, 300).then(() => null, (e: unknown) => e as Error);
    expect(error?.name).toBe("TimeoutError");
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

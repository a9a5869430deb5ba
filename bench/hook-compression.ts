/**
 * What asking for gzip costs a hook: GET /api/context as hooks send it, one connection, one request at a
 * time, alternating requests without accept-encoding and with Node's fetch's (`gzip, deflate`), on the
 * built server and bench/context-speed.ts's store (new session and hints each request). Prints both
 * p50s, the encoding answered and the bytes sent, for three runs, and the path the contexts took (the
 * server's x-baton-cache and x-baton-search).
 *
 *   npm run build && npx tsx bench/hook-compression.ts [--learnings 10000] [--requests 600]
 */
import { Agent, request } from "node:http";
import { parseArgs } from "node:util";
import { hookQueries } from "./context-speed/hook-query";
import { FETCH_HEADERS } from "./context-speed/measure";
import { seededStore, withServer } from "./context-speed/stores";

const { values } = parseArgs({ options: { learnings: { type: "string", default: "10000" }, requests: { type: "string", default: "600" } } });
const store = await seededStore("embedded", Number(values.learnings));
await withServer(store.databaseUrl, async (server) => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const get = (path: string, asFetch: boolean) =>
    new Promise<{ ms: number; encoding: string; bytes: number; path: string }>((resolve, reject) => {
      const started = performance.now();
      const headers = { authorization: `Bearer ${store.token}`, ...(asFetch ? FETCH_HEADERS : {}) };
      const req = request(server.url + path, { agent, headers }, (res) => {
        let bytes = 0;
        res.on("data", (d: Buffer) => (bytes += d.length));
        const path = `${res.headers["x-baton-cache"]} ${res.headers["x-baton-search"] ?? ""}`.trim();
        res.on("end", () => resolve({ ms: performance.now() - started, encoding: String(res.headers["content-encoding"] ?? "none"), bytes, path }));
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end();
    });
  const next = hookQueries(77);
  for (let i = 0; i < 200; i++) await get(next(), i % 2 === 0);
  const paths = new Map<string, number>();
  const p50 = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!.toFixed(2);
  for (let run = 0; run < 3; run++) {
    const [plain, fetchLike] = [[] as number[], [] as number[]];
    let [plainBytes, fetchBytes, encoding] = [0, 0, ""];
    for (let i = 0; i < Number(values.requests); i++) {
      const asFetch = i % 2 === 1;
      const r = await get(next(), asFetch);
      paths.set(r.path, (paths.get(r.path) ?? 0) + 1);
      (asFetch ? fetchLike : plain).push(r.ms);
      if (asFetch) [fetchBytes, encoding] = [r.bytes, r.encoding];
      else plainBytes = r.bytes;
    }
    console.log(`run ${run + 1}: no accept-encoding p50 ${p50(plain)} ms (${plainBytes} B); fetch's accept-encoding p50 ${p50(fetchLike)} ms (${encoding}, ${fetchBytes} B)`);
  }
  console.log(`paths (x-baton-cache, x-baton-search): ${[...paths].map(([p, n]) => `${p} ${n}`).join(", ")}`);
});
await store.stop();
process.exit(0);

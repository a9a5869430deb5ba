import autocannon from "autocannon";
import { Agent, request } from "node:http";
import { createGunzip, createInflate } from "node:zlib";

/** What Node's fetch (the hooks', the CLI's) sends with every request besides the token: it asks for gzip. */
export const FETCH_HEADERS = { "accept-encoding": "gzip, deflate" };

/** Latencies are NaN when no request completed within the run (a shape slower than `seconds`). */
export type Load = { rps: number; p50: number; p99: number; errors: number; non2xx: number; completed: number };
export type Latency = { p50: number; p95: number; p99: number; mean: number; samples: number };

export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
export const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 50);

/**
 * autocannon against `base`, `connections` at a time for `seconds`: one fixed path, or a new path
 * from `next` for every request (so no two requests ask the same question).
 */
export async function load(base: string, token: string, path: string | (() => string), seconds: number, connections = 10): Promise<Load> {
  const first = typeof path === "string" ? path : path();
  const result = await autocannon({
    url: base + first,
    connections,
    duration: seconds,
    headers: { authorization: `Bearer ${token}`, ...FETCH_HEADERS },
    ...(typeof path === "string" ? {} : { requests: [{ setupRequest: (req) => ({ ...req, path: path() }) }] }),
  });
  const completed = result["2xx"] + result.non2xx;
  return {
    rps: completed / result.duration,
    p50: completed ? result.latency.p50 : NaN,
    p99: completed ? result.latency.p99 : NaN,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    completed,
  };
}

export function meanLoad(loads: Load[]): Load {
  const avg = (k: keyof Load) => loads.reduce((s, l) => s + l[k], 0) / loads.length;
  return { rps: avg("rps"), p50: avg("p50"), p99: avg("p99"), errors: avg("errors"), non2xx: avg("non2xx"), completed: avg("completed") };
}

/**
 * Which path the server says each context took: where its learnings were searched (x-baton-search:
 * memory, sql, none) and whether it came from the response cache (x-baton-cache: hit), counted.
 */
export type ServerSaid = Map<string, number>;

/** One keep-alive connection: `get(path)` resolves with the status, the body, the time it took in ms, and the path headers. */
export function oneConnection(base: string, token: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const get = (path: string): Promise<{ status: number; body: string; ms: number; said: string[] }> =>
    new Promise((resolve, reject) => {
      const started = performance.now();
      const req = request(base + path, { agent, headers: { authorization: `Bearer ${token}`, ...FETCH_HEADERS } }, (res) => {
        // A compressed answer is read as fetch reads it: decompressed, in the time measured.
        const encoding = res.headers["content-encoding"];
        const stream = encoding === "gzip" ? res.pipe(createGunzip()) : encoding === "deflate" ? res.pipe(createInflate()) : res;
        let body = "";
        stream.setEncoding("utf8");
        stream.on("data", (d: string) => (body += d));
        const header = (name: string) => (typeof res.headers[name] === "string" ? [`${name.replace("x-baton-", "")} ${res.headers[name]}`] : []);
        stream.on("end", () => resolve({ status: res.statusCode ?? 0, body, ms: performance.now() - started, said: [...header("x-baton-search"), ...header("x-baton-cache")] }));
        stream.on("error", reject);
      });
      req.on("error", reject);
      req.end();
    });
  return { get, close: () => agent.destroy() };
}

export function latencyOf(times: number[]): Latency {
  const sorted = [...times].sort((a, b) => a - b);
  const mean = times.reduce((s, t) => s + t, 0) / times.length;
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99), mean, samples: times.length };
}

/**
 * One request at a time on one connection, each a new question from `next`: at least `seconds` and
 * `minSamples` requests (whichever is later, but no longer than `capSeconds`), after `warmUp` requests.
 * Returns each request's time, in ms, in order.
 */
export async function sequential(
  base: string,
  token: string,
  next: () => string,
  options: { seconds: number; minSamples: number; capSeconds: number; warmUp: number },
  said?: ServerSaid,
): Promise<number[]> {
  const client = oneConnection(base, token);
  try {
    const ask = async () => {
      const res = await client.get(next());
      if (res.status !== 200) throw new Error(`${next.name || "request"} answered ${res.status}: ${res.body.slice(0, 200)}`);
      return res;
    };
    for (let i = 0; i < options.warmUp; i++) await ask();
    const times: number[] = [];
    const started = performance.now();
    const elapsed = () => (performance.now() - started) / 1000;
    while ((elapsed() < options.seconds || times.length < options.minSamples) && elapsed() < options.capSeconds) {
      const res = await ask();
      times.push(res.ms);
      for (const p of res.said) said?.set(p, (said.get(p) ?? 0) + 1);
    }
    return times;
  } finally {
    client.close();
  }
}

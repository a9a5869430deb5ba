import { Agent, request } from "node:http";
import { LEARNING_KINDS } from "../../lib/rules";
import { latencyOf, type Latency } from "../context-speed/measure";
import { randomGenerator, sentence } from "../seed-store";

export type Stream = { name: string; perSecond: number; next: () => { method: "GET" | "POST"; path: string; body?: unknown } };
export type WindowStats = { sent: number; ok: number; failed: number; skipped: number; latency: Latency | null; lastFailure?: string };

type Counter = { sent: number; ok: number; failed: number; skipped: number; times: number[]; lastFailure?: string };
const emptyCounter = (): Counter => ({ sent: 0, ok: 0, failed: 0, skipped: 0, times: [] });

/** One HTTP request on the shared keep-alive agent: the status (0 on a network error) and the time it took. */
function send(agent: Agent, base: string, token: string, req: ReturnType<Stream["next"]>): Promise<{ status: number; ms: number; body: string }> {
  const started = performance.now();
  const payload = req.body === undefined ? undefined : JSON.stringify(req.body);
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (payload) headers["content-type"] = "application/json";
  return new Promise((resolve) => {
    const r = request(base + req.path, { method: req.method, agent, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (body.length < 500 ? (body += d) : undefined));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started, body }));
      res.on("error", (e) => resolve({ status: 0, ms: performance.now() - started, body: String(e) }));
    });
    r.on("error", (e) => resolve({ status: 0, ms: performance.now() - started, body: String(e) }));
    r.end(payload);
  });
}

/** A write every time: a new learning, then a new proposal, and so on (each invalidates cached contexts). */
export function writes(seed: number): Stream["next"] {
  const rand = randomGenerator(seed);
  let n = 0;
  return () => {
    const kind = LEARNING_KINDS[n % LEARNING_KINDS.length]!;
    const content = `${sentence(rand)} (soak ${n})`;
    return n++ % 2 === 0
      ? { method: "POST", path: "/api/learnings", body: { kind, content, project: "web", source: "soak", confirmed: true } }
      : { method: "POST", path: "/api/proposals", body: { kind, content, project: "web", source: "soak", confidence: 0.8 } };
  };
}

/**
 * Sends every stream at its steady rate (open loop: requests go out on schedule whether or not earlier
 * ones have answered, up to `maxInFlight`; past that they are skipped and counted). `take()` returns
 * each stream's figures since the last call.
 */
export function startTraffic(base: string, token: string, streams: Stream[], maxInFlight = 200) {
  // Idle sockets are dropped after 4 s, before the server's 5 s keep-alive timeout closes them under a request.
  const agent = new Agent({ keepAlive: true, maxSockets: 64, timeout: 4000 });
  const counters = new Map(streams.map((s) => [s.name, emptyCounter()]));
  const due = new Map(streams.map((s) => [s.name, 0]));
  let inFlight = 0;
  const started = performance.now();
  const fire = (s: Stream, c: Counter) => {
    if (inFlight >= maxInFlight) return void c.skipped++;
    inFlight++;
    c.sent++;
    void send(agent, base, token, s.next()).then((res) => {
      inFlight--;
      const now = counters.get(s.name)!;
      if (res.status >= 200 && res.status < 300) {
        now.ok++;
        now.times.push(res.ms);
      } else {
        now.failed++;
        now.lastFailure = `${res.status} ${res.body.slice(0, 160)}`;
      }
    });
  };
  const timer = setInterval(() => {
    const seconds = (performance.now() - started) / 1000;
    for (const s of streams) {
      const target = Math.floor(s.perSecond * seconds);
      for (let n = due.get(s.name)!; n < target; n++) fire(s, counters.get(s.name)!);
      due.set(s.name, target);
    }
  }, 10);
  const take = (): Record<string, WindowStats> => {
    const out: Record<string, WindowStats> = {};
    for (const s of streams) {
      const c = counters.get(s.name)!;
      counters.set(s.name, emptyCounter());
      out[s.name] = { sent: c.sent, ok: c.ok, failed: c.failed, skipped: c.skipped, latency: c.times.length ? latencyOf(c.times) : null, lastFailure: c.lastFailure };
    }
    return out;
  };
  const stop = async () => {
    clearInterval(timer);
    const deadline = Date.now() + 10_000;
    while (inFlight > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    agent.destroy();
  };
  return { take, stop };
}

/** Whether the prompt-stage route answers here (it is built elsewhere): null if yes, else why not. */
export async function promptRouteMissing(base: string, token: string, path: string): Promise<string | null> {
  const agent = new Agent({ keepAlive: false });
  const res = await send(agent, base, token, { method: "GET", path });
  agent.destroy();
  return res.status === 200 ? null : `GET ${path.split("?")[0]} answered ${res.status}`;
}

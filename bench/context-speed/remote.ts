import type { DelayProxy } from "../delay-proxy";
import { latencyOf, oneConnection, type Latency } from "./measure";

export type Remote = {
  delayMs: number;
  requests: number;
  /** Database round trips while a context request was in flight, per context, asked with the database quiet before and after each. */
  inRequest: number;
  isolated: number;
  /** All round trips in a window of back-to-back requests (from quiet to quiet), per context: bookkeeping written apart included. */
  total: number;
  latency: Latency;
};

/** Waits until no database request has gone through `proxy` for `quietMs` (at most `capMs`). */
async function settle(proxy: DelayProxy, quietMs: number, capMs = 30_000): Promise<void> {
  const deadline = Date.now() + capMs;
  let last = proxy.requests();
  let quietSince = Date.now();
  while (Date.now() < deadline && Date.now() - quietSince < quietMs) {
    await new Promise((r) => setTimeout(r, 100));
    if (proxy.requests() !== last) {
      last = proxy.requests();
      quietSince = Date.now();
    }
  }
}

/**
 * Context requests one at a time to a server whose database is reached through `proxy` (which delays
 * and counts). First `isolated` requests, each with the database quiet for `quietMs` before and after
 * it: the round trips while it is in flight are its own (bookkeeping written on a timer comes after).
 * Then `requests` back to back, in a window that opens when the database has been quiet and closes when
 * it is quiet again after the last response, so batched bookkeeping is counted as it really happens;
 * the p50 is theirs.
 */
export async function measureRemote(
  base: string,
  token: string,
  proxy: DelayProxy,
  next: () => string,
  options: { requests: number; isolated: number; warmUp: number; delayMs: number; quietMs: number },
): Promise<Remote> {
  const client = oneConnection(base, token);
  try {
    const ask = async () => {
      const res = await client.get(next());
      if (res.status !== 200) throw new Error(`context through the proxy answered ${res.status}: ${res.body.slice(0, 200)}`);
      return res.ms;
    };
    for (let i = 0; i < options.warmUp; i++) await ask();
    let inRequest = 0;
    for (let i = 0; i < options.isolated; i++) {
      await settle(proxy, options.quietMs);
      const before = proxy.requests();
      await ask();
      inRequest += proxy.requests() - before;
    }
    await settle(proxy, options.quietMs);
    const start = proxy.requests();
    const times: number[] = [];
    for (let i = 0; i < options.requests; i++) times.push(await ask());
    await settle(proxy, options.quietMs);
    const n = options.requests;
    return {
      delayMs: options.delayMs,
      requests: n,
      isolated: options.isolated,
      inRequest: inRequest / options.isolated,
      total: (proxy.requests() - start) / n,
      latency: latencyOf(times),
    };
  } finally {
    client.close();
  }
}

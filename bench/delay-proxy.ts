import { createConnection, createServer, type Server, type Socket } from "node:net";
import { freePort } from "../test/support/server";

export type DelayProxy = {
  url: string;
  /** HTTP requests forwarded so far: each is one round trip to the database. */
  requests: () => number;
  /**
   * Requests that continued a Hrana stream left open by an earlier one (a baton sent back): the steps
   * of an interactive transaction, which holds sqld's write lock across round trips.
   */
  continued: () => number;
  stop: () => Promise<void>;
};

/**
 * A TCP proxy that holds every chunk for half of `rttMs` in each direction, standing in for the
 * distance between an app and its database (the kernel here has no netem qdisc for `tc`). Chunks keep
 * their order: each direction's timers all wait the same time. It also counts the HTTP requests sent
 * through it (`POST /v…/pipeline` for Hrana), i.e. database round trips.
 */
export async function startDelayProxy(target: string, rttMs: number): Promise<DelayProxy> {
  const { hostname, port } = new URL(target);
  let requests = 0;
  let continued = 0;
  const sockets = new Set<Socket>();
  const later = (to: Socket, chunk: Buffer) => setTimeout(() => to.writable && to.write(chunk), rttMs / 2);
  const server: Server = createServer((client) => {
    const upstream = createConnection({ host: hostname, port: Number(port) });
    for (const s of [client, upstream]) {
      // Each chunk is sent when its delay is over: Nagle's algorithm would hold small ones back for
      // the peer's delayed ACK (~40 ms), a stall no real network adds.
      s.setNoDelay(true);
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => (s === client ? upstream : client).destroy());
    }
    client.on("data", (chunk: Buffer) => {
      const text = chunk.toString("latin1");
      requests += text.match(/(?:^|\r\n)(?:POST|GET) \//g)?.length ?? 0;
      continued += text.match(/"baton":"/g)?.length ?? 0;
      later(upstream, chunk);
    });
    upstream.on("data", (chunk: Buffer) => later(client, chunk));
    client.on("end", () => setTimeout(() => upstream.end(), rttMs / 2));
    upstream.on("end", () => setTimeout(() => client.end(), rttMs / 2));
  });
  const listenPort = await freePort();
  await new Promise<void>((resolve) => server.listen(listenPort, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${listenPort}`,
    requests: () => requests,
    continued: () => continued,
    stop: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

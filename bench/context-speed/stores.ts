import { startServer, tempDir, type RunningServer } from "../../test/support/server";
import { startSqld, type Sqld } from "../../test/support/sqld";
import { BENCH_ENV as RATE_LIMIT_ENV } from "../bench-server";
import { seedStore } from "../seed-store";

export const SHAPES = ["embedded", "sqld"] as const;
export type Shape = (typeof SHAPES)[number];

// Instances on a remote database must share a secret; one made up here does.
const BENCH_ENV = { ...RATE_LIMIT_ENV, BATON_SECRET: "bench-context-speed-secret-0123456789" };

/** A seeded store: the embedded file or a real sqld primary, with `size` learnings and a write token. */
export type Store = {
  shape: Shape;
  /** What DATABASE_URL says for a server reaching it directly. */
  databaseUrl: string;
  sqld?: Sqld;
  token: string;
  seedSeconds: number;
  stop: () => Promise<void>;
};

export async function seededStore(shape: Shape, size: number): Promise<Store> {
  const tmp = tempDir(`baton-bench-${shape}-`);
  let sqld: Sqld | undefined;
  const stop = async () => {
    await sqld?.stop();
    tmp.remove();
  };
  try {
    if (shape === "sqld") sqld = await startSqld();
    const databaseUrl = sqld ? sqld.url : `file:${tmp.dir}/bench.db`;
    const started = performance.now();
    const token = await seedStore({ DATABASE_URL: databaseUrl, BATON_SECRET: BENCH_ENV.BATON_SECRET }, size);
    return { shape, databaseUrl, sqld, token, seedSeconds: (performance.now() - started) / 1000, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The built server on `databaseUrl` (the store's own, or a proxy in front of it) for the time of `work`. */
export async function withServer<T>(databaseUrl: string, work: (server: RunningServer) => Promise<T>, env: Record<string, string> = {}, nodeArgs: string[] = []): Promise<T> {
  const server = await startServer({ databaseUrl, env: { ...BENCH_ENV, ...env }, nodeArgs });
  try {
    return await work(server);
  } finally {
    await server.stop();
  }
}

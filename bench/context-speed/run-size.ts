import type { RunningServer } from "../../test/support/server";
import { startDelayProxy } from "../delay-proxy";
import { hookQueries, promptQueries, REPEATED_QUERY, storeNamedLearnings } from "./hook-query";
import { latencyOf, load, meanLoad, sequential, type Latency, type Load, type ServerSaid } from "./measure";
import { measureRemote, type Remote } from "./remote";
import { recording, searchShare, type SearchShare } from "./search-share";
import { seededStore, withServer, type Shape, type Store } from "./stores";

export type Options = { duration: number; rounds: number; delayMs: number; remoteRequests: number; isolated: number; quietMs: number };

export type Row = {
  shape: Shape;
  size: number;
  seedSeconds: number;
  health: Load;
  /** A new sessionId, branch, directory and commit subjects every request, as hooks ask. */
  uncached: Load;
  ratio: number;
  /** The old figure: one question repeated, answered from the cache. */
  cached: Load;
  cachedRatio: number;
  /** How many of the uncached contexts were ranked by a search (the run counts only at >= 80%), and the rows per searched word. */
  search: SearchShare;
  /** One connection, one hook-like request at a time: every sample of the SINGLE_RUNS runs together. */
  single: Latency;
  /** Each one-connection run's p50, and /api/health's in a run alternated with it: the figure is their medians. */
  singleP50s: number[];
  healthP50s: number[];
  singleSearch: SearchShare;
  /** What the server said of the one-connection contexts: where each searched, and whether it was cached (x-baton-search, x-baton-cache). */
  serverSaid: ServerSaid;
  /** The prompt stage (GET /api/context/prompt as the prompt hook asks it), one connection, after the contexts. */
  prompt: Latency;
  /** sqld only: through a proxy that delays every round trip by `delayMs` and counts them. */
  remote?: Remote;
  /** sqld only: the prompt stage (GET /api/context/prompt) the same way. */
  remotePrompt?: Remote;
};

function checkLoad(what: string, l: Load): Load {
  if (l.errors || l.non2xx) throw new Error(`${what}: ${l.errors} errors and ${l.non2xx} non-2xx answers under load`);
  return l;
}

/** The store holds what it should, and a hook-like question gets a Claude hook answer. */
async function check(server: RunningServer, token: string, size: number): Promise<void> {
  const headers = { authorization: `Bearer ${token}` };
  const json = await fetch(server.url + REPEATED_QUERY, { headers });
  const body = (await json.json()) as { learningsTotal?: number };
  if (!json.ok || body.learningsTotal !== size) throw new Error(`context check failed: ${json.status} ${JSON.stringify(body).slice(0, 200)}`);
  const hook = await fetch(server.url + hookQueries(1)(), { headers });
  const answer = (await hook.json()) as { hookSpecificOutput?: { additionalContext?: unknown } };
  if (!hook.ok || typeof answer.hookSpecificOutput?.additionalContext !== "string") {
    throw new Error(`hook-like context check failed: ${hook.status} ${JSON.stringify(answer).slice(0, 200)}`);
  }
}

/** One-connection runs of contexts, each alternated with one of /api/health: the p50 is the median of their p50s. */
const SINGLE_RUNS = 3;

async function measureLocal(server: RunningServer, store: Store, size: number, o: Options): Promise<Omit<Row, "remote" | "seedSeconds">> {
  const { token } = store;
  await check(server, token, size);
  const uncachedPaths = recording(hookQueries(size));
  const next = uncachedPaths.next;
  const warm = Math.min(2, o.duration);
  await load(server.url, token, "/api/health", warm); // warm-up of each route, not counted
  await load(server.url, token, next, warm);
  const health: Load[] = [];
  const uncached: Load[] = [];
  for (let round = 0; round < o.rounds; round++) {
    health.push(checkLoad("health", await load(server.url, token, "/api/health", o.duration)));
    uncached.push(checkLoad("uncached context", await load(server.url, token, next, o.duration)));
  }
  await load(server.url, token, REPEATED_QUERY, warm);
  const cached = checkLoad("cached context", await load(server.url, token, REPEATED_QUERY, o.duration));
  const one = { seconds: o.duration, minSamples: 100, capSeconds: Math.max(60, o.duration * 4), warmUp: 10 };
  const singlePaths = recording(hookQueries(size + 1));
  const singleRuns: number[][] = [];
  const healthRuns: number[][] = [];
  const said: ServerSaid = new Map();
  for (let run = 0; run < SINGLE_RUNS; run++) {
    healthRuns.push(await sequential(server.url, token, () => "/api/health", one));
    singleRuns.push(await sequential(server.url, token, singlePaths.next, one, said));
  }
  // Worked out before the named learnings are stored, on the store the contexts were asked of.
  const search = await searchShare(store.databaseUrl, uncachedPaths.sent);
  const singleSearch = await searchShare(store.databaseUrl, singlePaths.sent);
  await storeNamedLearnings(server.url, token, size);
  const prompt = latencyOf(await sequential(server.url, token, promptQueries(size), one));
  const h = meanLoad(health);
  const u = meanLoad(uncached);
  return {
    shape: store.shape,
    size,
    health: h,
    uncached: u,
    ratio: u.rps / h.rps,
    search,
    cached,
    cachedRatio: cached.rps / h.rps,
    single: latencyOf(singleRuns.flat()),
    serverSaid: said,
    singleP50s: singleRuns.map((t) => latencyOf(t).p50),
    healthP50s: healthRuns.map((t) => latencyOf(t).p50),
    singleSearch,
    prompt,
  };
}

async function measureDelayed(store: Store, o: Options): Promise<{ context: Remote; prompt: Remote }> {
  const proxy = await startDelayProxy(store.sqld!.url, o.delayMs);
  const settings = { requests: o.remoteRequests, isolated: o.isolated, warmUp: 10, delayMs: o.delayMs, quietMs: o.quietMs };
  try {
    return await withServer(proxy.url, async (server) => {
      // The store holds the 48 named learnings measureLocal stored for its prompts (of 1,000 or more).
      const context = await measureRemote(server.url, store.token, proxy, hookQueries(7), settings);
      return { context, prompt: await measureRemote(server.url, store.token, proxy, promptQueries(7), settings) };
    });
  } finally {
    await proxy.stop();
  }
}

/** Every figure for one shape and size, on a freshly seeded store. */
export async function runSize(shape: Shape, size: number, o: Options): Promise<Row> {
  const store = await seededStore(shape, size);
  try {
    process.stderr.write(`${shape}, ${size} learnings: seeded in ${store.seedSeconds.toFixed(1)} s; loading…\n`);
    const local = await withServer(store.databaseUrl, (server) => measureLocal(server, store, size, o));
    const row: Row = { ...local, seedSeconds: store.seedSeconds };
    if (store.sqld) {
      process.stderr.write(`${shape}, ${size} learnings: ${o.isolated} + ${o.remoteRequests} contexts, and as many prompts, with the database ${o.delayMs} ms away…\n`);
      const delayed = await measureDelayed(store, o);
      row.remote = delayed.context;
      row.remotePrompt = delayed.prompt;
    }
    return row;
  } finally {
    await store.stop();
  }
}

/**
 * Import load (issue 21 finding 3): what one large seed import does to everyone else. The real built
 * server on a fresh embedded database; user A imports a generated seed.json of `--learnings` learnings
 * (190,000 ≈ 14 MB, the largest store seen) while user B, a real client with a token of its own,
 * posts a learning every `--every` ms. Prints B's write latency (p50, p99, max) during the import
 * against B's latency with no import (`--baseline` seconds first, same run), the import's duration
 * and answer, and the server's resident memory (VmRSS of its process group, sampled every 50 ms)
 * before, at its peak, and after.
 *
 *   npm run build && npx tsx bench/import-load.ts [--learnings 190000] [--every 100] [--baseline 10]
 *
 * B's posts are sent on schedule whether or not the previous one came back (an open loop), so a stall
 * shows as the latency of every post that waited through it.
 */
import { Agent, request } from "node:http";
import { parseArgs } from "node:util";
import { runCli } from "../test/support/cli";
import { bigSeed } from "./import-load/big-seed";
import { startBenchServer } from "./bench-server";
import { percentile } from "./context-speed/measure";
import { groupMemory } from "./soak/memory";

const { values } = parseArgs({
  options: {
    learnings: { type: "string", default: "190000" },
    every: { type: "string", default: "100" },
    baseline: { type: "string", default: "10" },
  },
});
const settings = { learnings: Number(values.learnings), everyMs: Number(values.every), baselineSeconds: Number(values.baseline) };

type Post = { startedAt: number; ms: number; status: number };

/**
 * One POST over node:http, which has no connect or headers timeout: a stalled server shows as a long
 * latency, not an error. Status 0: the connection failed.
 */
function postJson(agent: Agent, url: string, token: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve) => {
    const req = request(url, { method: "POST", agent, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      res.on("error", () => resolve({ status: 0, text }));
    });
    req.on("error", (error) => resolve({ status: 0, text: error.message }));
    req.end(body);
  });
}

/** User B: a learning posted every `everyMs` until stopped; each post's time and status. */
function writer(base: string, token: string) {
  const agent = new Agent({ keepAlive: true });
  const posts: Promise<Post>[] = [];
  let n = 0;
  const post = async (): Promise<Post> => {
    const startedAt = performance.now();
    const body = JSON.stringify({ kind: "insight", content: `B's note ${n++}: the staging deploy needs the cache warmed first` });
    const { status } = await postJson(agent, `${base}/api/learnings`, token, body);
    return { startedAt, ms: performance.now() - startedAt, status };
  };
  const timer = setInterval(() => posts.push(post()), settings.everyMs);
  return {
    stop: async () => {
      clearInterval(timer);
      const done = await Promise.all(posts);
      agent.destroy();
      return done;
    },
  };
}

function latency(posts: Post[]) {
  const sorted = posts.map((p) => p.ms).sort((a, b) => a - b);
  const failed = posts.filter((p) => p.status !== 201 && p.status !== 200).length;
  return { n: posts.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted[sorted.length - 1] ?? NaN, failed };
}

const fmt = (l: ReturnType<typeof latency>) =>
  `p50 ${l.p50.toFixed(0)} ms · p99 ${l.p99.toFixed(0)} ms · max ${l.max.toFixed(0)} ms (${l.n} posts${l.failed ? `, ${l.failed} failed` : ""})`;

const body = JSON.stringify(bigSeed(settings.learnings));
process.stderr.write(`seed.json: ${settings.learnings} learnings, ${(body.length / 1e6).toFixed(1)} MB\n`);

const bench = await startBenchServer({ tempPrefix: "baton-import-load-", tokenName: "importer A" });
try {
  const base = bench.server.url;
  const env = { DATABASE_URL: bench.server.databaseUrl };
  const email = "b@example.com";
  const user = await runCli(["admin", "create-user", "--email", email, "--password", "benchmark password 2"], { env });
  if (user.code !== 0) throw new Error(`create-user failed: ${user.stderr}`);
  const tok = await runCli(["admin", "create-token", "--email", email, "--name", "writer B", "--scope", "write"], { env });
  if (tok.code !== 0) throw new Error(`create-token failed: ${tok.stderr}`);
  const tokenB = tok.stdout.trim();
  const pgid = bench.server.process.pid!;

  // Warm the routes (first requests compile and open what they need), then B alone.
  const warm = writer(base, tokenB);
  await new Promise((r) => setTimeout(r, 1000));
  await warm.stop();
  const baseline = writer(base, tokenB);
  await new Promise((r) => setTimeout(r, settings.baselineSeconds * 1000));
  const alone = latency(await baseline.stop());

  const before = groupMemory(pgid).rssMb;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, groupMemory(pgid).rssMb)), 50);
  const during = writer(base, tokenB);
  const started = performance.now();
  const res = await postJson(new Agent(), `${base}/api/seed/import`, bench.token, body);
  const seconds = (performance.now() - started) / 1000;
  const importing = latency((await during.stop()).filter((p) => p.startedAt >= started && p.startedAt <= started + seconds * 1000));
  clearInterval(sampler);
  await new Promise((r) => setTimeout(r, 2000));
  const after = groupMemory(pgid).rssMb;

  console.log(`import: ${res.status} in ${seconds.toFixed(1)} s · ${res.text.slice(0, 200)}`);
  console.log(`B's writes, no import:     ${fmt(alone)}`);
  console.log(`B's writes, during import: ${fmt(importing)}`);
  console.log(`server RSS: ${before.toFixed(0)} MB before · ${peak.toFixed(0)} MB peak · ${after.toFixed(0)} MB 2 s after`);
} finally {
  await bench.stop();
}

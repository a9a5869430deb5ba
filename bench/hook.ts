/**
 * Hook benchmark: how much does `baton hook session-start` cost over the single HTTP request it
 * makes? Wall time of the real hook (node cli/bin/baton.mjs, stdin = Claude Code's SessionStart
 * JSON, in a git repository, so it also asks git for branch, remote and the last commit subjects)
 * against a bare `node -e` script doing the same single fetch of /api/context, alternated in one
 * run against the real built server. Target: median ratio ≤ 1.5.
 *
 * Run (needs the built app and CLI):
 *
 *   npm run build && npx tsx bench/hook.ts        (N=30 by default; BENCH_N=60 for more)
 *
 * Figures are printed and written to bench/results/hook.json. Exit code 0 even when the target is
 * missed (a benchmark, not a test); non-zero only on errors.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { cleanEnv, ROOT } from "../test/support/server";
import { startBenchServer } from "./bench-server";

const N = Number(process.env.BENCH_N ?? 30);
const WARMUP = 3;
const TARGET_RATIO = 1.5;
const RESULTS = path.join(ROOT, "bench/results/hook.json");

// The bare client: one fetch, the body to stdout. Nothing else a hook could leave out.
const BARE = `fetch(process.env.BENCH_URL,{headers:{authorization:"Bearer "+process.env.BENCH_TOKEN}}).then(r=>r.text()).then(t=>process.stdout.write(t))`;

function run(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; input?: string }): Promise<{ ms: number; code: number | null; stdout: string }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: options.cwd, env: options.env, stdio: ["pipe", "pipe", "ignore"] });
    let stdout = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ ms: performance.now() - started, code, stdout }));
    child.stdin.end(options.input ?? "");
  });
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: { ...process.env, GIT_AUTHOR_NAME: "Bench", GIT_AUTHOR_EMAIL: "b@example.com", GIT_COMMITTER_NAME: "Bench", GIT_COMMITTER_EMAIL: "b@example.com" },
  }).trim();

function stats(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  const round = (v: number) => Math.round(v * 10) / 10;
  return { median: round(at(0.5)), p90: round(at(0.9)), min: round(sorted[0]!), max: round(sorted.at(-1)!) };
}

async function api(url: string, token: string, method: string, route: string, body?: unknown) {
  const res = await fetch(url + route, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
}

type Runner = () => Promise<{ ms: number; code: number | null; stdout: string }>;

/** A realistic context: identity and learnings from a seed, a handoff, an active task. */
async function fillContext(url: string, token: string) {
  await api(url, token, "POST", "/api/projects", { slug: "bench", name: "Bench" });
  await api(url, token, "POST", "/api/seed/import", JSON.parse(readFileSync(path.join(ROOT, "test/fixtures/seed.json"), "utf8")));
  await api(url, token, "POST", "/api/projects/bench/handoffs", { markdown: "Did: token list.\nNext: revoke button.", branch: "main", sessionId: "s1" });
  await api(url, token, "PUT", "/api/projects/bench/tasks/task-1/memory", { markdown: "# Revoke tokens\n\n- [ ] button" });
  await api(url, token, "PUT", "/api/projects/bench/active-task", { taskId: "task-1" });
}

/** A git repository with a remote and three commits, for the hook to ask git about. */
function makeRepo(dir: string): string {
  const repo = path.join(dir, "src", "bench");
  mkdirSync(repo, { recursive: true });
  git(repo, "init", "-q", "-b", "main");
  git(repo, "remote", "add", "origin", "git@github.com:acme/bench.git");
  for (const subject of ["Token list", "Hash tokens with SHA-256", "Revoke button skeleton"]) git(repo, "commit", "-q", "--allow-empty", "-m", subject);
  return repo;
}

/** The real hook, and the bare client making the same request the hook makes. */
function runners(url: string, token: string, repo: string, home: string): { hook: Runner; bare: Runner } {
  const sessionId = "4f2d9c1e-7b3a-4e8f-9a61-0c5d2e8b7f30";
  const hookInput = JSON.stringify({ ...JSON.parse(readFileSync(path.join(ROOT, "test/fixtures/cli/hooks/session-start.json"), "utf8")), session_id: sessionId, cwd: repo });
  const params = new URLSearchParams({ format: "claude", source: "startup", sessionId, cwd: repo, branch: "main", remote: "git@github.com:acme/bench.git", q: git(repo, "log", "-3", "--format=%s").split("\n").join(" · ") });
  const bareUrl = `${url}/api/context?project=bench&${params}`;
  const base = cleanEnv();
  const hookEnv = { ...base, HOME: home, XDG_CONFIG_HOME: "", XDG_CACHE_HOME: "", BATON_URL: url, BATON_TOKEN: token };
  const bareEnv = { ...base, BENCH_URL: bareUrl, BENCH_TOKEN: token };
  return {
    hook: () => run([path.join(ROOT, "cli/bin/baton.mjs"), "hook", "session-start"], { cwd: repo, env: hookEnv, input: hookInput }),
    bare: () => run(["-e", BARE], { cwd: repo, env: bareEnv }),
  };
}

/** Checks both answer alike, warms up, then times N alternated runs of each. */
async function measure({ hook, bare }: { hook: Runner; bare: Runner }) {
  const check = [await hook(), await bare()];
  if (check.some((r) => r.code !== 0)) throw new Error("a warm-up run failed");
  if (check[0]!.stdout.trim() !== check[1]!.stdout.trim()) throw new Error(`the hook's answer differs from the bare fetch:\n${check[0]!.stdout}\n---\n${check[1]!.stdout}`);
  for (let i = 1; i < WARMUP; i++) {
    await hook();
    await bare();
  }
  const hookMs: number[] = [];
  const bareMs: number[] = [];
  for (let i = 0; i < N; i++) {
    // Alternated, and which goes first alternates too, so drift hits both alike.
    if (i % 2 === 0) {
      hookMs.push((await hook()).ms);
      bareMs.push((await bare()).ms);
    } else {
      bareMs.push((await bare()).ms);
      hookMs.push((await hook()).ms);
    }
  }
  return { hookMs, bareMs };
}

function report(hookMs: number[], bareMs: number[]) {
  const h = stats(hookMs);
  const b = stats(bareMs);
  const ratio = Math.round((h.median / b.median) * 100) / 100;
  const ratioP90 = Math.round((h.p90 / b.p90) * 100) / 100;
  const pad = (s: string | number, n: number) => String(s).padStart(n);

  console.log(`Hook benchmark: ${N} alternated runs each, Node ${process.version}, ${os.cpus().length} CPUs`);
  console.log("");
  console.log(`${"".padEnd(34)}${pad("median", 9)}${pad("p90", 9)}${pad("min", 9)}${pad("max", 9)}`);
  console.log(`${"baton hook session-start".padEnd(34)}${pad(h.median, 9)}${pad(h.p90, 9)}${pad(h.min, 9)}${pad(h.max, 9)}  ms`);
  console.log(`${"node -e (one fetch)".padEnd(34)}${pad(b.median, 9)}${pad(b.p90, 9)}${pad(b.min, 9)}${pad(b.max, 9)}  ms`);
  console.log("");
  console.log(`ratio of medians ${ratio} (p90 ${ratioP90}); target ≤ ${TARGET_RATIO}: ${ratio <= TARGET_RATIO ? "met" : "MISSED"}`);

  mkdirSync(path.dirname(RESULTS), { recursive: true });
  writeFileSync(
    RESULTS,
    JSON.stringify(
      { date: new Date().toISOString(), node: process.version, cpus: os.cpus().length, n: N, hookMs: h, bareMs: b, ratio, ratioP90, target: TARGET_RATIO, met: ratio <= TARGET_RATIO, runs: { hook: hookMs, bare: bareMs } },
      null,
      2,
    ) + "\n",
  );
  console.log(`Written to ${path.relative(ROOT, RESULTS)}`);
}

async function main() {
  const bench = await startBenchServer({ tempPrefix: "baton-bench-hook-", tokenName: "hook bench", userName: "bench" });
  try {
    await fillContext(bench.server.url, bench.token);
    const repo = makeRepo(bench.dir);
    const { hookMs, bareMs } = await measure(runners(bench.server.url, bench.token, repo, path.join(bench.dir, "home")));
    report(hookMs, bareMs);
  } finally {
    await bench.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});

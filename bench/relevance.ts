/**
 * Relevance benchmark: does the session-start context (`GET /api/context`) carry the learnings that
 * matter, within a 1,200-token budget, and how does it compare with a recency baseline?
 *
 * Run (needs the built app and CLI):
 *
 *   npm run build && npx tsx bench/relevance.ts
 *
 * Data: bench/relevance/dataset.json — learnings over several projects plus personal ones, and
 * session-start scenarios labelled with the learnings that truly matter. Nothing in the data set is
 * tuned to Baton's ranking; do not change it to make a result look better.
 *
 * For each scenario the real built server is asked for the context with the hints the CLI would send
 * (project, branch, task, q = recent commit subjects and the task title). A relevant learning counts
 * as recalled when its `- [kind] <content>` line is in the context. The baseline is the 5 newest
 * learnings of each kind (by createdAt) among those the context may draw on (the scenario project's
 * and the personal ones), at most 15. Figures are printed and written to bench/results/relevance.json.
 * Exit code 0 even when the targets are missed (a benchmark, not a test); non-zero only on errors.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { runCli } from "../test/support/cli";
import { ROOT, startServer, tempDir, type RunningServer } from "../test/support/server";

const BUDGET = 1200;
const BASELINE_PER_KIND = 5;
const TARGET_RECALL = 0.85;
const TARGET_MARGIN = 0.25;
const KINDS = ["pattern", "insight", "self_knowledge"] as const;

type Kind = (typeof KINDS)[number];
type Learning = {
  key: string;
  project: string | null;
  kind: Kind;
  content: string;
  tags: string[];
  confirmed: boolean;
  createdAt: string;
};
type Scenario = {
  name: string;
  project: string;
  branch: string;
  task: string | null;
  q: string;
  relevant: string[];
  paraphrase?: boolean;
};
type Dataset = { projects: { slug: string; name: string }[]; learnings: Learning[]; scenarios: Scenario[] };

type ScenarioResult = {
  name: string;
  project: string;
  paraphrase: boolean;
  relevant: number;
  batonHits: number;
  baselineHits: number;
  tokenEstimate: number;
  learningsShown: number;
  learningsTotal: number;
  batonMissed: { key: string; rankInFullRanking: number | null }[];
  baselineMissed: string[];
};

const DATASET = path.join(ROOT, "bench/relevance/dataset.json");
const RESULTS = path.join(ROOT, "bench/results/relevance.json");

const collapse = (s: string) => s.replace(/\s+/g, " ").trim();
const lineOf = (l: Learning) => `- [${l.kind}] ${collapse(l.content)}`;

function loadDataset(): Dataset {
  const data = JSON.parse(readFileSync(DATASET, "utf8")) as Dataset;
  const keys = new Set<string>();
  for (const l of data.learnings) {
    if (keys.has(l.key)) throw new Error(`duplicate learning key ${l.key}`);
    keys.add(l.key);
  }
  for (const s of data.scenarios) {
    for (const k of s.relevant) {
      const l = data.learnings.find((x) => x.key === k);
      if (!l) throw new Error(`scenario "${s.name}" names unknown learning ${k}`);
      if (l.project !== null && l.project !== s.project) throw new Error(`scenario "${s.name}": ${k} belongs to ${l.project}`);
    }
  }
  return data;
}

/** Index of the learning line in the context's learning lines, or -1. */
function positionIn(contextText: string, l: Learning): number {
  const want = lineOf(l);
  const lines = contextText.split("\n").filter((line) => line.startsWith("- ["));
  return lines.findIndex((line) => line === want || line.startsWith(`${want} (`));
}

/** The recency baseline: the newest BASELINE_PER_KIND learnings of each kind among those available. */
function baselineKeys(data: Dataset, project: string): Set<string> {
  const pool = data.learnings.filter((l) => l.project === project || l.project === null);
  const keys = new Set<string>();
  for (const kind of KINDS) {
    pool
      .filter((l) => l.kind === kind)
      .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt))
      .slice(0, BASELINE_PER_KIND)
      .forEach((l) => keys.add(l.key));
  }
  return keys;
}

type Api = (method: string, url: string, body?: unknown) => Promise<{ status: number; json: unknown; text: string }>;

function api(baseUrl: string, token: string): Api {
  return async (method, url, body) => {
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(baseUrl + url, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body !== undefined ? { "content-type": "application/json" } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status === 429 && attempt < 20) {
        const wait = Number(res.headers.get("retry-after") ?? "1");
        await new Promise((r) => setTimeout(r, (Number.isFinite(wait) && wait > 0 ? wait : 1) * 1000));
        continue;
      }
      let json: unknown = undefined;
      try {
        json = JSON.parse(text);
      } catch {
        // not JSON; callers look at text
      }
      return { status: res.status, json, text };
    }
  };
}

function expectStatus(res: { status: number; text: string }, status: number, what: string) {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status}: ${res.text.slice(0, 500)}`);
}

type ContextJson = { context: string; tokenEstimate: number; learningsShown: number; learningsTotal: number };

function contextUrl(s: Scenario, budget: number, maxChars?: number) {
  const params = new URLSearchParams({ project: s.project, branch: s.branch, q: s.q, budget: String(budget) });
  if (s.task) params.set("task", s.task);
  if (maxChars) params.set("maxChars", String(maxChars));
  return `/api/context?${params}`;
}

async function getContext(call: Api, url: string): Promise<ContextJson> {
  const res = await call("GET", url);
  if (res.status === 404) {
    throw new Error(`GET /api/context answered 404 (${res.text.slice(0, 200)}): the build predates the context route; rebuild and retry`);
  }
  expectStatus(res, 200, `GET ${url}`);
  const body = res.json as Partial<ContextJson>;
  if (typeof body.context !== "string" || typeof body.tokenEstimate !== "number") {
    throw new Error(`unexpected context response: ${res.text.slice(0, 500)}`);
  }
  return body as ContextJson;
}

const pad = (s: string | number, n: number) => String(s).padEnd(n);
const padL = (s: string | number, n: number) => String(s).padStart(n);

async function main() {
  const data = loadDataset();
  const tmp = tempDir("baton-bench-");
  const databaseUrl = `file:${tmp.dir}/bench.db`;
  let server: RunningServer | undefined;
  try {
    server = await startServer({ databaseUrl });
    const env = { DATABASE_URL: databaseUrl };
    const email = "bench@example.com";
    const user = await runCli(["admin", "create-user", "--email", email, "--password", "benchmark password 1"], { env });
    if (user.code !== 0) throw new Error(`create-user failed: ${user.stderr}`);
    const tok = await runCli(["admin", "create-token", "--email", email, "--name", "relevance bench", "--scope", "write"], { env });
    if (tok.code !== 0) throw new Error(`create-token failed: ${tok.stderr}`);
    const call = api(server.url, tok.stdout.trim());

    // A real user has an identity; it takes its share of the budget like in any session start.
    expectStatus(
      await call("PUT", "/api/seed", {
        identity: {
          aiName: "Kit",
          principalName: "Sam",
          catchphrase: "Small steps, green tests.",
          preferences: { responseStyle: "concise", timezone: "Europe/Amsterdam", locale: "en-GB" },
        },
      }),
      200,
      "PUT /api/seed",
    );

    for (const p of data.projects) {
      expectStatus(await call("POST", "/api/projects", { slug: p.slug, name: p.name }), 201, `POST /api/projects ${p.slug}`);
    }
    const idOf = new Map<string, string>();
    for (const l of data.learnings) {
      const res = await call("POST", "/api/learnings", {
        kind: l.kind,
        content: l.content,
        ...(l.project ? { project: l.project } : {}),
        tags: l.tags,
        confirmed: l.confirmed,
        createdAt: l.createdAt,
      });
      expectStatus(res, 201, `POST /api/learnings ${l.key}`);
      const id = (res.json as { learning?: { id?: string } }).learning?.id;
      if (!id) throw new Error(`no id for ${l.key}: ${res.text.slice(0, 200)}`);
      idOf.set(l.key, id);
    }
    if (new Set(idOf.values()).size !== data.learnings.length) throw new Error("some learnings were merged into one another");

    const byKey = new Map(data.learnings.map((l) => [l.key, l]));
    const results: ScenarioResult[] = [];
    for (const s of data.scenarios) {
      const ctx = await getContext(call, contextUrl(s, BUDGET));
      if (ctx.tokenEstimate > BUDGET) throw new Error(`${s.name}: tokenEstimate ${ctx.tokenEstimate} > budget ${BUDGET}`);
      const base = baselineKeys(data, s.project);
      const missed: string[] = [];
      let batonHits = 0;
      let baselineHits = 0;
      for (const key of s.relevant) {
        const l = byKey.get(key)!;
        if (positionIn(ctx.context, l) >= 0) batonHits++;
        else missed.push(key);
        if (base.has(key)) baselineHits++;
      }
      // Diagnostics only: where the missed learnings sit in the full ranking (same hints, no budget pressure).
      const batonMissed: ScenarioResult["batonMissed"] = [];
      if (missed.length) {
        const full = await getContext(call, contextUrl(s, 32_000, 200_000));
        for (const key of missed) {
          const pos = positionIn(full.context, byKey.get(key)!);
          batonMissed.push({ key, rankInFullRanking: pos >= 0 ? pos + 1 : null });
        }
      }
      results.push({
        name: s.name,
        project: s.project,
        paraphrase: Boolean(s.paraphrase),
        relevant: s.relevant.length,
        batonHits,
        baselineHits,
        tokenEstimate: ctx.tokenEstimate,
        learningsShown: ctx.learningsShown,
        learningsTotal: ctx.learningsTotal,
        batonMissed,
        baselineMissed: s.relevant.filter((k) => !base.has(k)),
      });
    }

    const sum = (f: (r: ScenarioResult) => number, rs = results) => rs.reduce((a, r) => a + f(r), 0);
    const totalRelevant = sum((r) => r.relevant);
    const batonRecall = sum((r) => r.batonHits) / totalRelevant;
    const baselineRecall = sum((r) => r.baselineHits) / totalRelevant;
    const difference = batonRecall - baselineRecall;
    const macro = (f: (r: ScenarioResult) => number) => sum((r) => f(r) / r.relevant) / results.length;
    const subset = (paraphrase: boolean) => {
      const rs = results.filter((r) => r.paraphrase === paraphrase);
      const rel = sum((r) => r.relevant, rs);
      return {
        scenarios: rs.length,
        relevant: rel,
        batonRecall: rel ? sum((r) => r.batonHits, rs) / rel : null,
        baselineRecall: rel ? sum((r) => r.baselineHits, rs) / rel : null,
      };
    };
    const pass = batonRecall >= TARGET_RECALL && difference >= TARGET_MARGIN;

    const w = Math.max(8, ...results.map((r) => r.name.length)) + 2;
    console.log(`Relevance benchmark: ${data.learnings.length} learnings, ${data.projects.length} projects, ${results.length} scenarios, budget ${BUDGET} tokens\n`);
    console.log(`${pad("scenario", w)}${padL("rel", 4)}${padL("baton", 7)}${padL("base", 6)}${padL("tokens", 8)}${padL("shown", 7)}  missed by Baton`);
    for (const r of results) {
      const miss = r.batonMissed.map((m) => `${m.key}${m.rankInFullRanking ? `@${m.rankInFullRanking}` : "@-"}`).join(", ");
      console.log(
        `${pad(r.name + (r.paraphrase ? " *" : ""), w)}${padL(r.relevant, 4)}${padL(r.batonHits, 7)}${padL(r.baselineHits, 6)}${padL(r.tokenEstimate, 8)}${padL(`${r.learningsShown}/${r.learningsTotal}`, 7)}  ${miss}`,
      );
    }
    const f3 = (x: number | null) => (x === null ? "-" : x.toFixed(3));
    const para = subset(true);
    const literal = subset(false);
    console.log(`\n* paraphrase scenario; key@N = rank of a missed learning in the full ranking (no budget), @- = not ranked`);
    console.log(`\nrelevant learnings: ${totalRelevant}`);
    console.log(`recall (micro)  Baton ${f3(batonRecall)}  baseline ${f3(baselineRecall)}  difference ${f3(difference)}`);
    console.log(`recall (macro)  Baton ${f3(macro((r) => r.batonHits))}  baseline ${f3(macro((r) => r.baselineHits))}`);
    console.log(`paraphrase (${para.scenarios} scenarios)  Baton ${f3(para.batonRecall)}  baseline ${f3(para.baselineRecall)}`);
    console.log(`literal (${literal.scenarios} scenarios)     Baton ${f3(literal.batonRecall)}  baseline ${f3(literal.baselineRecall)}`);
    console.log(
      `targets: recall >= ${TARGET_RECALL} (${batonRecall >= TARGET_RECALL ? "ok" : "missed"}), difference >= ${TARGET_MARGIN} (${difference >= TARGET_MARGIN ? "ok" : "missed"}) → ${pass ? "PASS" : "FAIL"}`,
    );

    mkdirSync(path.dirname(RESULTS), { recursive: true });
    writeFileSync(
      RESULTS,
      JSON.stringify(
        {
          at: new Date().toISOString(),
          budget: BUDGET,
          dataset: { learnings: data.learnings.length, projects: data.projects.length, scenarios: results.length },
          relevant: totalRelevant,
          batonRecall,
          baselineRecall,
          difference,
          macro: { batonRecall: macro((r) => r.batonHits), baselineRecall: macro((r) => r.baselineHits) },
          paraphrase: para,
          literal,
          targets: { recall: TARGET_RECALL, difference: TARGET_MARGIN },
          pass,
          scenarios: results,
        },
        null,
        2,
      ) + "\n",
    );
    console.log(`\nwritten: ${path.relative(ROOT, RESULTS)}`);
  } finally {
    await server?.stop();
    tmp.remove();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});

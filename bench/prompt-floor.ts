/**
 * Where the prompt stage's relevance floor (PROMPT_MATCH_WORDS in lib/context/prompt/prompt-learnings.ts)
 * sits: how many of the learnings that matter pass it, and how often a prompt that is not about the
 * project (another project's, or a generic one) brings something in anyway. No floor is the baseline.
 *
 *   npm run build && npx tsx bench/prompt-floor.ts
 *
 * Data: bench/relevance/dataset.json, each scenario's hints (commit subjects, task title) taken as the
 * prompt. For each prompt the BM25 matches in the scenario's scope are scored as the prompt stage scores
 * them (the same words, the same FTS5 bm25), the best 10 kept; a floor keeps those scoring at least
 * `floor` times a word found in one learning only.
 */
import { createClient, type Client } from "@libsql/client";
import { selectTerms } from "../lib/context/hints/hint-query";
import { promptTerms } from "../lib/context/hints/prompt-terms";
import { ftsExpression } from "../lib/learnings/fts-query";
import { startBenchServer } from "./bench-server";
import { api } from "./relevance/context-client";
import { loadDataset } from "./relevance/dataset";
import { fill } from "./relevance/fill";

const FLOORS = [0, 1, 1.25, 1.5, 1.75, 2];
const KEPT = 10;
const GENERIC = [
  "Please write a haiku about autumn in the mountains",
  "What time is it in Tokyo right now?",
  "Can you explain what a monad is in simple terms?",
  "Thanks, that looks good. Let's commit and push.",
  "Summarise what we did today",
  "Rename this variable to something clearer",
  "Why is the sky blue?",
  "Run the tests again please",
];

type Scored = { content: string; score: number };

async function scores(db: Client, storeSize: number, prompt: string, project: string): Promise<Scored[]> {
  const terms = promptTerms(prompt);
  const df = new Map<string, number>();
  for (const t of terms) df.set(t, Number((await db.execute({ sql: "SELECT count(*) AS n FROM learnings_fts WHERE learnings_fts MATCH ?", args: [`"${t}"`] })).rows[0]!.n));
  const match = ftsExpression(selectTerms(terms, df, storeSize));
  if (!match) return [];
  const rows = await db.execute({
    sql: `SELECT l.content, bm25(learnings_fts, 1.0, 0.5) AS score FROM learnings_fts JOIN learnings l ON l.seq = learnings_fts.rowid
          LEFT JOIN projects p ON p.id = l.project_id WHERE learnings_fts MATCH ? AND (l.project_id IS NULL OR p.slug = ?) ORDER BY score LIMIT ${KEPT}`,
    args: [match, project],
  });
  return rows.rows.map((r) => ({ content: String(r.content), score: -Number(r.score) }));
}

async function main() {
  const data = loadDataset();
  const bench = await startBenchServer({ tempPrefix: "baton-bench-floor-", tokenName: "prompt floor bench" });
  try {
    await fill(api(bench.server.url, bench.token), data);
    const db = createClient({ url: `file:${bench.dir}/bench.db` });
    const storeSize = data.learnings.length;
    const unique = Math.log((storeSize - 0.5) / 1.5);
    const contentOf = new Map(data.learnings.map((l) => [l.key, l.content]));
    const rows = FLOORS.map((floor) => ({ floor, hits: 0, others: 0, crossPrompts: 0, genericItems: 0 }));
    let labelled = 0;
    for (const [i, s] of data.scenarios.entries()) {
      const relevant = new Set(s.relevant.map((k) => contentOf.get(k)));
      labelled += relevant.size;
      const other = data.scenarios.slice(i + 1).find((o) => o.project !== s.project) ?? data.scenarios.find((o) => o.project !== s.project)!;
      const [own, cross] = [await scores(db, storeSize, s.q, s.project), await scores(db, storeSize, other.q, s.project)];
      for (const row of rows) {
        const kept = own.filter((x) => x.score >= row.floor * unique);
        row.hits += kept.filter((x) => relevant.has(x.content)).length;
        row.others += kept.length - kept.filter((x) => relevant.has(x.content)).length;
        if (cross.some((x) => x.score >= row.floor * unique)) row.crossPrompts++;
      }
    }
    for (const prompt of GENERIC) {
      for (const p of data.projects) {
        const got = await scores(db, storeSize, prompt, p.slug);
        for (const row of rows) row.genericItems += got.filter((x) => x.score >= row.floor * unique).length;
      }
    }
    db.close();
    const n = data.scenarios.length;
    console.log(`${storeSize} learnings, ${n} scenarios (${labelled} labelled), ${GENERIC.length} generic prompts × ${data.projects.length} projects; a word in one learning weighs ${unique.toFixed(2)}`);
    console.log("| floor | labelled kept | others a prompt | another project's prompt brings something | generic prompts' items |");
    console.log("| --- | --- | --- | --- | --- |");
    for (const r of rows) console.log(`| ${r.floor} | ${(r.hits / labelled).toFixed(3)} | ${(r.others / n).toFixed(2)} | ${r.crossPrompts}/${n} | ${r.genericItems} |`);
  } finally {
    await bench.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});

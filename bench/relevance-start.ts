/**
 * The session start at a tight budget on the development set only (issue 26): what to tune the start
 * stage on, since the development set at 1,200 tokens is saturated (0.989) and the held-out sets are
 * for checking a chosen variant, not for looking at. Each development session starts as
 * `baton hook session-start` asks (bench/relevance/dev-prompts.ts), within the budget; printed per
 * session: tokens, learnings shown, each section's tokens (x: dropped), and each label as key:Yn with
 * its rank in the full ranking (n: not shown); then recall (pooled and per session), the learnings
 * shown in all, and the tokens the facts after each learning take ("(0.78, unconfirmed, 5mo)").
 *
 *   npm run build && npx tsx bench/relevance-start.ts [--budget 700] [--top 20] [--show "stale price"] [--quiet]
 *
 * --top N lists the first N of the full ranking for each session with a miss (** a label);
 * --show prints the context of the sessions whose name contains the text.
 */
import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import { countTokens } from "../lib/context/pack/tokenizer";
import { startBenchServer } from "./bench-server";
import { api, getContext, sessionStartUrl } from "./relevance/context-client";
import { loadDevPrompts } from "./relevance/dev-prompts";
import { fill } from "./relevance/fill";
import { positionIn } from "./relevance/score";

// A budget and length no context reaches, to see the whole ranking.
const FULL_RANKING = "&budget=32000&maxChars=200000";
const learningLines = (text: string) => text.split("\n").filter((l) => l.startsWith("- "));
const factsOf = (line: string) => line.slice(line.lastIndexOf(" ("));

async function main() {
  const { values } = parseArgs({ options: { budget: { type: "string", default: "700" }, top: { type: "string", default: "0" }, show: { type: "string" }, quiet: { type: "boolean", default: false } } });
  const budget = Number(values.budget);
  const set = loadDevPrompts();
  const byKey = new Map(set.data.learnings.map((l) => [l.key, l]));
  const bench = await startBenchServer({ tempPrefix: "baton-bench-", tokenName: "relevance start bench" });
  try {
    const call = api(bench.server.url, bench.token);
    await fill(call, set.data);
    let hits = 0, labels = 0, perSession = 0, shown = 0, factTokens = 0, lineTokens = 0;
    for (const s of set.data.scenarios) {
      const ctx = (await getContext(call, sessionStartUrl(s, randomUUID(), budget))) as Awaited<ReturnType<typeof getContext>> & { sections: { name: string; tokens: number; included: boolean }[] };
      const full = await getContext(call, sessionStartUrl(s, randomUUID(), budget).replace(/&budget=\d+/, "") + FULL_RANKING);
      const found = s.relevant.map((key) => ({ key, shown: positionIn(ctx.context, byKey.get(key)!) >= 0, rank: positionIn(full.context, byKey.get(key)!) + 1 }));
      const got = found.filter((f) => f.shown).length;
      hits += got;
      labels += found.length;
      perSession += got / found.length;
      shown += ctx.learningsShown;
      for (const line of learningLines(ctx.context)) {
        lineTokens += countTokens(line);
        factTokens += countTokens(line) - countTokens(line.slice(0, line.length - factsOf(line).length));
      }
      if (values.quiet) continue;
      const sections = ctx.sections.map((x) => `${x.name}=${x.tokens}${x.included ? "" : "x"}`).join(" ");
      console.log(`${s.name.padEnd(44)} tok ${ctx.tokenEstimate} shown ${ctx.learningsShown} ${sections} | ${found.map((f) => `${f.key}:${f.shown ? "Y" : "n"}${f.rank}`).join(" ")}`);
      if (values.show && s.name.includes(values.show)) console.log(ctx.context);
      if (Number(values.top) && found.some((f) => !f.shown)) {
        learningLines(full.context)
          .slice(0, Number(values.top))
          .forEach((line, i) => {
            const key = set.data.learnings.find((l) => positionIn(line, l) === 0)?.key ?? "?";
            console.log(`    ${String(i + 1).padStart(2)} ${s.relevant.includes(key) ? "**" : "  "} ${key.padEnd(28)} ${factsOf(line)}`);
          });
      }
    }
    const n = set.data.scenarios.length;
    console.log(`development starts at ${budget}: per session ${(perSession / n).toFixed(3)}  pooled ${(hits / labels).toFixed(3)} (${hits}/${labels})  learnings shown ${shown} (${(shown / n).toFixed(1)} a start)  facts ${factTokens} of ${lineTokens} learning-line tokens`);
  } finally {
    await bench.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});

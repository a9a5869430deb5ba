/**
 * What rendering a stored handoff or session document costs the dashboard's server, hostile shapes
 * against a baseline timed in the same run: an ordinary handoff of the same length (headings, bullets,
 * code, a table), rendered the same way. A shape the renderer is slow on shows as a ratio well above 1,
 * one it is superlinear on as a ratio that grows with the size; rendering runs on the server's one
 * thread, so every other request waits meanwhile (a member's 200 KB handoff once held every hook for
 * minutes, with the renderer before markdown-it).
 *
 *   npx tsx bench/markdown.ts [--sizes 5000,20000,100000] [--runs 3]
 *
 * Prints, for each shape and size, which path the dashboard takes (markdown, or plain text past
 * MAX_RENDERED_MARKDOWN.text), the least time of --runs renders, the ordinary handoff's, their ratio.
 * No assertion: the e2e test (e2e/projects.spec.ts, handoffs timeline) checks the page answers.
 */
import { parseArgs } from "node:util";
import { renderToStaticMarkup } from "react-dom/server";
import { Markdown, markdownBudget } from "../components/markdown/markdown";
import { MAX_RENDERED_MARKDOWN } from "../lib/rules";
import { leastTime } from "./least-time";

const { values } = parseArgs({ options: { sizes: { type: "string", default: "5000,20000,100000" }, runs: { type: "string", default: "3" } } });
const sizes = values.sizes.split(",").map(Number);
const runs = Number(values.runs);

/** A handoff as the session-end hook writes them: headings, bullets, paths, code, a table. */
const HANDOFF = [
  "## Did",
  "- Moved the refund webhook to the outbox table (`db/migrations/0042_outbox.sql`); **one** publisher now.",
  "- Fixed `TestCloseBatch` failing after 23:00: the cutoff used local time, see [the note](https://wiki.example/cutoff).",
  "",
  "## Next",
  "1. Backfill `refund_events` for March.",
  "2. Ask ops about the Kafka retention.",
  "",
  "```sh",
  "make gen && go test ./settlement/... -run TestCloseBatch",
  "```",
  "",
  "| file | change |",
  "| --- | ---: |",
  "| settlement/cutoff.go | +12 −4 |",
  "",
].join("\n");

const ordinaryHandoffs = (n: number) => HANDOFF.repeat(Math.ceil(n / HANDOFF.length)).slice(0, n);

/** Hostile shapes, each grown to `n` characters. */
const SHAPES: Record<string, (n: number) => string> = {
  "nested quotes (> × n)": (n) => `${">".repeat(n - 2)} x`,
  "emphasis marks (_* × n/2)": (n) => "_*".repeat(n / 2),
  "open brackets ([ × n/2, ] × n/2)": (n) => "[".repeat(n / 2) + "]".repeat(n / 2),
  "unclosed links ([a](b × n/6)": (n) => "[a](b ".repeat(Math.floor(n / 6)),
  "a wide table": (n) => `|${"a|".repeat(n / 4)}\n|${"-|".repeat(n / 4)}\n`,
  "nested list items": (n) => {
    const lines: string[] = [];
    for (let i = 0, size = 0; size < n; i++) size += (lines[lines.length] = `${" ".repeat((i % 200) * 2)}- item ${i}`).length + 1;
    return lines.join("\n");
  },
};

const least = (work: () => void) => leastTime(runs, work);

// The component called as the page calls it, one page (one budget) a render.
const rendered = (text: string) => renderToStaticMarkup(Markdown({ children: text, budget: markdownBudget() }));

// The first render pays for compiling the renderer.
rendered(HANDOFF);

console.log(`runs ${runs} each (least time); plain text past ${MAX_RENDERED_MARKDOWN.text.toLocaleString("en")} characters`);
console.log(["shape", "chars", "path", "render ms", "ordinary ms", "ratio"].join("\t"));
for (const size of sizes) {
  const ordinary = ordinaryHandoffs(size);
  const base = least(() => rendered(ordinary));
  for (const [shape, make] of Object.entries(SHAPES)) {
    const text = make(size);
    const path = text.length > MAX_RENDERED_MARKDOWN.text ? "plain text" : "markdown";
    const ms = least(() => rendered(text));
    console.log([shape, text.length, path, ms.toFixed(1), base.toFixed(1), (ms / base).toFixed(2)].join("\t"));
  }
}

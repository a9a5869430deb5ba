/**
 * Writes lib/context/search/fts-unicode-data.ts: which characters FTS5's `unicode61` tokenizer (default
 * options) treats as token characters, and what it folds each one to. The tables are measured, not
 * transcribed: every code point is put through the real FTS5 of the libSQL that Baton runs, so the
 * TypeScript tokenizer follows that build (its Unicode tables are older than JavaScript's; see the data
 * file's header). Rerun after upgrading libSQL:
 *
 *   npx tsx scripts/fts-unicode-tables.ts
 */
import { writeFileSync } from "node:fs";
import { openFts5Terms } from "../test/support/fts5-terms";

const SEPARATOR = 0;
const TOKEN = 1;
const MARK = 2; // kept going inside a token (and folded), but never starts one

/** Every code point a JavaScript string can carry as text: all but the surrogates. */
function codePoints(): number[] {
  const all: number[] = [];
  for (let c = 0; c < 0x110000; c++) if (c < 0xd800 || c > 0xdfff) all.push(c);
  return all;
}

/**
 * For each code point c two probes: "qcq" gives one token "q" + fold(c) + "q" when c continues a
 * token, or "q", "q" when it separates; "cq" gives fold(c) + "q" when c can start a token and "q"
 * when it cannot.
 */
async function measure(): Promise<{ kind: Uint8Array; fold: Int32Array; version: string }> {
  const fts = await openFts5Terms("unicode61");
  const kind = new Uint8Array(0x110000);
  const fold = new Int32Array(0x110000).fill(-1);
  const all = codePoints();
  for (let s = 0; s < all.length; s += 8192) {
    const batch = all.slice(s, s + 8192);
    const chars = batch.map((c) => String.fromCodePoint(c));
    const [inside, first] = await fts.termsOf([chars.map((ch) => `q${ch}q`).join(" "), chars.map((ch) => `${ch}q`).join(" ")]);
    let a = 0;
    let b = 0;
    for (const c of batch) {
      const t = inside![a++]!;
      if (t === "q") {
        if (inside![a++] !== "q" || first![b++] !== "q") throw new Error(`U+${c.toString(16)}: unexpected terms`);
        continue;
      }
      const folded = [...t.slice(1, -1)];
      if (!t.startsWith("q") || !t.endsWith("q") || folded.length > 1) throw new Error(`U+${c.toString(16)}: ${t}`);
      fold[c] = folded.length ? folded[0]!.codePointAt(0)! : 0;
      const u = first![b++]!;
      kind[c] = u === "q" ? MARK : TOKEN;
      if (kind[c] === TOKEN && u !== `${folded.join("")}q`) throw new Error(`U+${c.toString(16)}: starts as ${u}`);
    }
  }
  // A mark that folds to nothing looks like a token character that does too; alone, only the latter
  // would give a (empty) term.
  const marks = all.filter((c) => kind[c] === MARK);
  const [alone] = await fts.termsOf([marks.map((c) => String.fromCodePoint(c)).join(" ")]);
  if (alone!.length) throw new Error("a mark made a term on its own");
  fts.close();
  const { createClient } = await import("@libsql/client");
  const db = createClient({ url: ":memory:" });
  const version = String((await db.execute("SELECT sqlite_version()")).rows[0]![0]);
  db.close();
  return { kind, fold, version };
}

/** (code point, kind) where the kind changes, from U+0080 up (ASCII is written out in the tokenizer). */
function kindChanges(kind: Uint8Array): number[] {
  const out: number[] = [];
  let last = -1;
  for (let c = 0x80; c < 0x110000; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue;
    if (kind[c] !== last) out.push(c, (last = kind[c]!));
  }
  return out;
}

type Run = { start: number; count: number; stride: number; how: number; value: number };

/** Whether c → f continues the run; a run of one (always "adds") takes its stride and how from it. */
function extend(run: Run, c: number, f: number): boolean {
  if (run.count === 1) {
    const stride = c - run.start;
    if (stride !== 1 && stride !== 2) return false;
    if (f - c === run.value) Object.assign(run, { stride, count: 2 });
    else if (f === run.start + run.value) Object.assign(run, { stride, how: 1, value: f, count: 2 });
    else return false;
    return true;
  }
  if (c !== run.start + run.count * run.stride || (run.how === 0 ? f - c : f) !== run.value) return false;
  run.count++;
  return true;
}

/**
 * Folds that change a character, as runs (start, count, stride × 2 + how, value): how 0 adds value to
 * each code point (case), how 1 maps each to value (a letter without its accent; 0 drops a mark).
 */
function foldRuns(kind: Uint8Array, fold: Int32Array): number[] {
  const runs: Run[] = [];
  for (let c = 0x80; c < 0x110000; c++) {
    if (kind[c] === SEPARATOR || fold[c] === c) continue;
    const run = runs.at(-1);
    if (!run || !extend(run, c, fold[c]!)) runs.push({ start: c, count: 1, stride: 1, how: 0, value: fold[c]! - c });
  }
  return runs.flatMap((r) => [r.start, r.count, r.stride * 2 + r.how, r.value]);
}

function numbers(list: number[], perLine: number): string {
  const lines: string[] = [];
  for (let i = 0; i < list.length; i += perLine) lines.push(`  ${list.slice(i, i + perLine).join(", ")},`);
  return lines.join("\n");
}

const { kind, fold, version } = await measure();
const changes = kindChanges(kind);
const runs = foldRuns(kind, fold);
writeFileSync(
  new URL("../lib/context/search/fts-unicode-data.ts", import.meta.url),
  `// Generated by scripts/fts-unicode-tables.ts from SQLite ${version}'s FTS5 unicode61 tokenizer (libSQL,
// default options): do not edit. Its character classes follow Unicode 6.1, and a code point Unicode 6.1
// had not assigned counts as a token character: later emoji such as 🙂 U+1F642 and the skin tones
// U+1F3FB–U+1F3FF are words, 😀 U+1F600 separates. Case folding and accent removal cover the Basic
// Multilingual Plane and Deseret only.

/** SQLite's version when the tables were measured. */
export const MEASURED_ON = ${JSON.stringify(version)};

/** Pairs (first code point, kind) from U+0080 up: 0 separates, 1 is a token character, 2 a mark. */
export const KIND_CHANGES: readonly number[] = [
${numbers(changes, 16)}
];

/** Runs (start, count, stride × 2 + how, value): how 0 adds value to the code point, how 1 maps it to value. */
export const FOLD_RUNS: readonly number[] = [
${numbers(runs, 16)}
];
`,
);
console.log(`SQLite ${version}: ${changes.length / 2} kind changes, ${runs.length / 4} fold runs`);

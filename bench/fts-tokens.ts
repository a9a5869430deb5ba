/**
 * What ftsTokens (lib/context/search/fts-tokens.ts) costs when an in-memory index tokenizes every
 * learning once at start: `count` learnings of about 40 words (Zipf-drawn from bench/zipf-words.ts,
 * with sentence punctuation, a capital, and one to three tags), tokenized content and tags; then the
 * same store with one word in ten written in another script or with accents. Prints the median of
 * `rounds` runs (wall and CPU time) and the fastest (the fairer figure on a shared machine), the
 * terms made and the rate.
 *
 *   npx tsx bench/fts-tokens.ts [--count 100000] [--rounds 5]
 */
import { parseArgs } from "node:util";
import { ftsTokens } from "../lib/context/search/fts-tokens";
import { median } from "./context-speed/measure";
import { randomGenerator } from "./random";
import { zipfWord } from "./zipf-words";

const { values } = parseArgs({ options: { count: { type: "string", default: "100000" }, rounds: { type: "string", default: "5" } } });
const count = Number(values.count);
const rounds = Number(values.rounds);

const FOREIGN = ["Café", "naïve", "Straße", "Ærøskøbing", "Привет", "日本語", "한국어", "Σίσυφος", "résumé", "🙂"];

function learnings(foreignShare: number): string[] {
  const rand = randomGenerator(25);
  const texts: string[] = [];
  for (let i = 0; i < count; i++) {
    const words: string[] = [];
    for (let w = 0; w < 40; w++) {
      const word = rand() < foreignShare ? FOREIGN[Math.floor(rand() * FOREIGN.length)]! : zipfWord(rand);
      words.push(w % 12 === 11 ? `${word}.` : w % 7 === 6 ? `${word},` : word);
    }
    texts.push(words.join(" ").replace(/^./, (c) => c.toUpperCase()));
    texts.push(`${zipfWord(rand)} ${zipfWord(rand)}`);
  }
  return texts;
}

function measure(label: string, texts: string[]): void {
  const times: number[] = [];
  const cpuTimes: number[] = [];
  let terms = 0;
  for (let r = 0; r < rounds; r++) {
    const start = performance.now();
    const cpu = process.cpuUsage();
    terms = 0;
    for (const text of texts) terms += ftsTokens(text).length;
    const used = process.cpuUsage(cpu);
    times.push(performance.now() - start);
    cpuTimes.push((used.user + used.system) / 1000);
  }
  const ms = median(times);
  console.log(
    `${label}: ${count} learnings, ${terms} terms; median of ${rounds}: ${ms.toFixed(0)} ms ` +
      `(${median(cpuTimes).toFixed(0)} ms of CPU; ${((terms / ms) * 1000 / 1e6).toFixed(1)} M terms/s), fastest ${Math.min(...times).toFixed(0)} ms`,
  );
}

measure("English (Zipf words)", learnings(0));
measure("one word in ten accented or not Latin", learnings(0.1));

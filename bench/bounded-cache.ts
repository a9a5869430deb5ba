/**
 * BoundedCache (lib/process/bounded-cache.ts) full and churning, as the token counts of lines and the
 * learnings' heads are in a server that has run a while: a capacity of 20,000, keys like lines of a
 * context drawn from three times as many, each looked up and inserted when missing. Against the same
 * cache looking for its oldest entry with a new iterator at every eviction (what it did before
 * 2026-11-27), in the same run, alternating which goes first. Prints µs per lookup and the ratio.
 *
 *   npx tsx bench/bounded-cache.ts [--ops 200000] [--rounds 3]
 */
import { parseArgs } from "node:util";
import { BoundedCache } from "../lib/process/bounded-cache";
import { FreshIteratorCache } from "../test/support/fresh-iterator-cache";
import { randomGenerator } from "./random";

const { values } = parseArgs({ options: { ops: { type: "string", default: "200000" }, rounds: { type: "string", default: "3" } } });
const CAPACITY = 20_000;

const keys = Array.from({ length: CAPACITY * 3 }, (_, i) => `- learning line number ${i} with the words a line has (0.${i % 100})`);
type Cache = { get(k: string): number | undefined; set(k: string, v: number): void };

function run(cache: Cache, seed: number): { us: number; hits: number } {
  const rand = randomGenerator(seed);
  let hits = 0;
  const ops = Number(values.ops);
  const started = performance.now();
  for (let i = 0; i < ops; i++) {
    const key = keys[Math.floor(rand() * keys.length)]!;
    if (cache.get(key) !== undefined) hits++;
    else cache.set(key, i);
  }
  return { us: ((performance.now() - started) * 1000) / ops, hits };
}

for (let round = 0; round < Number(values.rounds); round++) {
  const make = { now: () => new BoundedCache<string, number>(CAPACITY), before: () => new FreshIteratorCache<string, number>(CAPACITY) };
  const order = round % 2 ? (["before", "now"] as const) : (["now", "before"] as const);
  const result: Record<string, { us: number; hits: number }> = {};
  for (const name of order) {
    const cache = make[name]();
    run(cache, 1); // fill it: the figures are of a full cache
    result[name] = run(cache, round + 2);
  }
  const { now, before } = result as { now: { us: number; hits: number }; before: { us: number; hits: number } };
  console.log(`round ${round + 1}: now ${now.us.toFixed(2)} µs a lookup, before ${before.us.toFixed(2)} µs (hits ${now.hits} / ${before.hits}): ${(before.us / now.us).toFixed(1)}x`);
}

/**
 * What offering similar learnings costs the review page: the queue's first page (50 pending proposals)
 * read as the page reads it, with the similar-learnings lookups, against the same page without them
 * (the listing and count alone), in one run on stores of 1k, 10k and 50k learnings. Half the pending
 * proposals restate a stored learning of the project with two words changed (each should be offered
 * it), half are new sentences.
 *
 *   npx tsx --conditions=react-server bench/review-similar.ts [--sizes 1000,10000,50000] [--rounds 5]
 *
 * (react-server: it imports the server's modules, which refuse to load, through "server-only", without it.)
 */
import { parseArgs } from "node:util";
import { sessionPrincipal } from "../lib/auth/principal";
import { openDatabase } from "../lib/db/client";
import { countQueue, listQueue } from "../lib/db/queries/proposal-queue";
import { reviewQueue } from "../lib/proposals/review-queue";
import { tempDir } from "../test/support/server";
import { median } from "./context-speed/measure";
import { randomGenerator, seedStore, sentence } from "./seed-store";

const { values } = parseArgs({ options: { sizes: { type: "string", default: "1000,10000,50000" }, rounds: { type: "string", default: "5" } } });
const sizes = values.sizes!.split(",").map(Number);
const rounds = Number(values.rounds);
const PENDING = 50;

/** The median time of `rounds` runs, in ms. */
async function timed(run: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return median(times);
}

for (const size of sizes) {
  const tmp = tempDir("baton-bench-similar-");
  const databaseUrl = `file:${tmp.dir}/bench.db`;
  try {
    await seedStore({ DATABASE_URL: databaseUrl }, size);
    const { client, db } = openDatabase(databaseUrl);
    const userId = String((await client.execute("SELECT id FROM users")).rows[0]!.id);
    const rand = randomGenerator(size + 1);
    // The same learnings restated in every run (a fixed shuffle by seq), so runs compare.
    const stored = (await client.execute({ sql: "SELECT id, content FROM learnings WHERE project_id = 'p-web' ORDER BY (seq * 2654435761) % 4294967296 LIMIT ?", args: [PENDING / 2] })).rows;
    const restated = stored.map((r) => String(r.content).split(" ").slice(0, -2).concat("instead", "now.").join(" "));
    for (let i = 0; i < PENDING; i++) {
      await client.execute({
        sql: "INSERT INTO proposals (id, user_id, project_id, kind, content, source, confidence, status, merged_count, created_at, updated_at) VALUES (?, ?, 'p-web', 'pattern', ?, 'bench', 0.5, 'pending', 0, ?, ?)",
        args: [`q${i}`, userId, i % 2 ? sentence(rand) : restated[i / 2]!, i, i],
      });
    }
    const principal = sessionPrincipal(userId);
    const filter = { userId, projectIds: ["p-web"] };
    const bare = await timed(() => Promise.all([listQueue(db, { ...filter, sort: "confidence", limit: PENDING + 1 }), countQueue(db, filter)]));
    const full = await timed(() => reviewQueue(db, principal, { sort: "confidence" }));
    const items = (await reviewQueue(db, principal, { sort: "confidence" })).items;
    const offered = (odd: number) => items.filter((p) => Number(p.id.slice(1)) % 2 === odd && p.similar.length).length;
    // A restatement's own original among what it is offered (q0 restates stored[0], q2 stored[1], …).
    const found = items.filter((p) => Number(p.id.slice(1)) % 2 === 0 && p.similar.some((l) => l.id === String(stored[Number(p.id.slice(1)) / 2]!.id))).length;
    console.log(
      `${size} learnings: page without similar ${bare.toFixed(1)} ms, with ${full.toFixed(1)} ms (${(full / bare).toFixed(1)}x); ` +
        `offered a similar learning: ${offered(0)}/${PENDING / 2} restatements (their original: ${found}), ${offered(1)}/${PENDING / 2} new sentences`,
    );
    client.close();
  } finally {
    tmp.remove();
  }
}

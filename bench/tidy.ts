/**
 * The tidy-up queue's cost (issue 27 item 5): tidyQueue as the page and GET /api/projects/{slug}/tidy
 * call it, on one project of 10k and of 100k learnings (seed-store's sentences, spread over 180 days;
 * half sent to an agent in the last 60 days, 1 in 200 flagged). Prints the p50 of each size and their ratio.
 *
 *   npx tsx --conditions=react-server bench/tidy.ts [--sizes 10000,100000] [--rounds 9]
 *
 * (react-server: it imports the server's modules, which refuse to load, through "server-only", without it.)
 */
import { parseArgs } from "node:util";
import { sessionPrincipal } from "../lib/auth/principal";
import { openDatabase } from "../lib/db/client";
import { tidyQueue } from "../lib/learnings/tidy";
import { tempDir } from "../test/support/server";
import { median } from "./context-speed/measure";
import { seedStore } from "./seed-store";

const { values } = parseArgs({ options: { sizes: { type: "string", default: "10000,100000" }, rounds: { type: "string", default: "9" } } });
const sizes = values.sizes!.split(",").map(Number);
const rounds = Number(values.rounds);
const p50s: number[] = [];

for (const size of sizes) {
  const tmp = tempDir("baton-bench-tidy-");
  const databaseUrl = `file:${tmp.dir}/bench.db`;
  try {
    await seedStore({ DATABASE_URL: databaseUrl }, size);
    const { client, db } = openDatabase(databaseUrl);
    const now = Date.now();
    await client.batch(
      [
        // One project holds them all.
        "UPDATE learnings SET project_id = 'p-web'",
        { sql: "UPDATE learnings SET last_injected_at = ? - (seq % 60) * 86400000 WHERE seq % 2 = 0", args: [now] },
        { sql: "UPDATE learnings SET flagged_at = ?, flag_reason = 'deleted', flag_file = 'src/x.ts' WHERE seq % 200 = 0", args: [now] },
        "ANALYZE",
      ],
      "write",
    );
    const userId = String((await client.execute("SELECT id FROM users")).rows[0]!.id);
    const principal = sessionPrincipal(userId);
    const q = await tidyQueue(db, principal, "web");
    const times: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const started = performance.now();
      await tidyQueue(db, principal, "web");
      times.push(performance.now() - started);
    }
    const p50 = median(times);
    p50s.push(p50);
    console.log(
      `${size} learnings: p50 ${p50.toFixed(1)} ms over ${rounds} runs ` +
        `(listed: ${q.stale.length} stale, ${q.duplicates.length} duplicate pairs, ${q.contradictions.length} contradictory, ${q.flagged.length} flagged)`,
    );
    client.close();
  } finally {
    tmp.remove();
  }
}
if (p50s.length > 1) console.log(`p50 at ${sizes.at(-1)} / p50 at ${sizes[0]}: ${(p50s.at(-1)! / p50s[0]!).toFixed(2)}x`);

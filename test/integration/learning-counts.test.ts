import { createClient, type Client } from "@libsql/client";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "@/lib/db/migrate";
import { ROOT, tempDir } from "../support/server";

/**
 * learning_counts holds, per owner and kind, how many learnings there are, kept by triggers at write
 * time (a context reads it instead of counting the learnings table). Checked here against counting the
 * table, through inserts, edits of kind and owner, superseding and restoring, deletes and the cascades of
 * deleted projects and users. A superseded learning is never in a context, so it is not counted.
 */

let db: Client;
const tmp = tempDir("baton-learning-counts-");

const kept = async () => (await db.execute("SELECT owner, kind, n FROM learning_counts WHERE n <> 0 ORDER BY owner, kind")).rows.map((r) => ({ ...r }));
const counted = async () =>
  (
    await db.execute(
      "SELECT CASE WHEN project_id IS NULL THEN 'user:' || user_id ELSE 'project:' || project_id END AS owner, kind, count(*) AS n FROM learnings WHERE superseded_at IS NULL GROUP BY 1, 2 ORDER BY 1, 2",
    )
  ).rows.map((r) => ({ ...r }));

async function insertLearnings(from: number, to: number) {
  const kinds = ["pattern", "insight", "self_knowledge"];
  const stmts = [];
  for (let i = from; i < to; i++) {
    const [user, project] = i % 4 === 0 ? ["u2", null] : i % 3 === 0 ? ["u1", null] : ["u1", i % 2 ? "p1" : "p2"];
    stmts.push({
      sql: "INSERT INTO learnings (id, user_id, project_id, kind, content, source, confirmed, tags, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'test', 0, '', 0, 0)",
      args: [`l${i}`, user, project, kinds[i % 3]!, `learning ${i}`],
    });
  }
  await db.batch(stmts, "write");
}

beforeAll(async () => {
  db = createClient({ url: `file:${tmp.dir}/counts.db` });
  await migrate(db, path.join(ROOT, "drizzle"));
  await db.execute("PRAGMA foreign_keys = ON");
  await db.batch(
    [
      ...["u1", "u2"].map((id) => ({ sql: "INSERT INTO users (id, name, email, created_at, updated_at) VALUES (?, ?, ?, 0, 0)", args: [id, id, `${id}@example.com`] })),
      ...["p1", "p2"].map((id) => ({ sql: "INSERT INTO projects (id, slug, name, created_by, created_at, updated_at) VALUES (?, ?, ?, 'u1', 0, 0)", args: [id, id, id] })),
    ],
    "write",
  );
  await insertLearnings(0, 60);
});

afterAll(() => {
  db?.close();
  tmp.remove();
});

describe("learning counts kept at write time", () => {
  it("match counting the table after inserts", async () => {
    expect(await kept()).toEqual(await counted());
  });

  it("follow a learning whose kind, project or owner changes, and deletes", async () => {
    await db.execute("UPDATE learnings SET kind = 'insight' WHERE seq % 5 = 0");
    await db.execute("UPDATE learnings SET project_id = 'p2' WHERE project_id = 'p1' AND seq % 2 = 0");
    await db.execute("UPDATE learnings SET project_id = NULL WHERE project_id = 'p2' AND seq % 7 = 0");
    await db.execute("UPDATE learnings SET content = 'edited', kind = kind WHERE seq % 3 = 0");
    await db.execute("DELETE FROM learnings WHERE seq % 11 = 0");
    expect(await kept()).toEqual(await counted());
  });

  it("leave out superseded learnings: superseding, restoring, and deleting a superseded one", async () => {
    const before = await kept();
    await db.execute("UPDATE learnings SET superseded_at = 1 WHERE seq % 4 = 1");
    expect(await kept()).toEqual(await counted());
    expect(await kept()).not.toEqual(before);
    await db.execute("UPDATE learnings SET kind = 'pattern', project_id = NULL WHERE superseded_at IS NOT NULL AND seq % 8 = 1");
    await db.execute("DELETE FROM learnings WHERE superseded_at IS NOT NULL AND seq % 3 = 0");
    expect(await kept()).toEqual(await counted());
    await db.execute("UPDATE learnings SET superseded_at = NULL WHERE seq % 8 = 5");
    expect(await kept()).toEqual(await counted());
    await db.execute("INSERT INTO learnings (id, user_id, project_id, kind, content, source, confirmed, tags, created_at, updated_at, superseded_at) VALUES ('imported-superseded', 'u1', 'p1', 'insight', 'x', 'test', 0, '', 0, 0, 1)");
    expect(await kept()).toEqual(await counted());
  });

  it("follow the cascades of a deleted project and a deleted user", async () => {
    await db.execute("DELETE FROM projects WHERE id = 'p2'");
    await db.execute("DELETE FROM users WHERE id = 'u2'");
    expect(await kept()).toEqual(await counted());
    expect((await kept()).some((r) => String(r.owner).endsWith("u2") || String(r.owner).endsWith("p2"))).toBe(false);
  });

  it("are made from the learnings already stored when the migration runs", async () => {
    await db.execute("INSERT INTO users (id, name, email, created_at, updated_at) VALUES ('u2', 'u2', 'u2@example.com', 0, 0)");
    await db.execute("INSERT INTO projects (id, slug, name, created_by, created_at, updated_at) VALUES ('p2', 'p2', 'p2', 'u1', 0, 0)");
    await insertLearnings(100, 140);
    await db.execute("DELETE FROM learning_counts");
    const migration = readFileSync(path.join(ROOT, "drizzle", countsMigration()), "utf8");
    const backfill = migration.split("--> statement-breakpoint").find((s) => /INSERT INTO `learning_counts`[\s\S]*GROUP BY/.test(s))!;
    await db.execute(backfill);
    expect(await kept()).toEqual(await counted());
  });
});

function countsMigration(): string {
  const journal = JSON.parse(readFileSync(path.join(ROOT, "drizzle/meta/_journal.json"), "utf8")) as { entries: { tag: string }[] };
  // The newest migration that makes the counts (0017 made them anew without superseded learnings).
  return `${journal.entries.findLast((e) => /_learning_counts/.test(e.tag))!.tag}.sql`;
}

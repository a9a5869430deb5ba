import { createClient, type Client } from "@libsql/client";
import { drizzle } from "drizzle-orm/libsql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import { countQueue, listQueue } from "@/lib/db/queries/proposal-queue";
import { listPendingInScope } from "@/lib/db/queries/proposals";
import * as schema from "@/lib/db/schema";
import { ROOT, tempDir } from "../support/server";

/**
 * A project's proposals are found by their index: decided proposals are never pruned, so a query that
 * scanned the table (every project's, every decided one) grew with the team's whole history, at every
 * new proposal (its twins) and every review page. Checked on the plan SQLite makes for the statements
 * Baton sends.
 */
let client: Client;
const statements: { sql: string; params: unknown[] }[] = [];
let db: Db;
const tmp = tempDir("baton-proposal-plan-");

beforeAll(async () => {
  client = createClient({ url: `file:${tmp.dir}/plan.db` });
  await migrate(client, `${ROOT}/drizzle`);
  db = drizzle(client, { schema, logger: { logQuery: (sql, params) => statements.push({ sql, params }) } }) as unknown as Db;
});

afterAll(() => {
  client?.close();
  tmp.remove();
});

async function planOf(run: () => Promise<unknown>): Promise<string> {
  statements.length = 0;
  await run();
  const explain = createClient({ url: `file:${tmp.dir}/plan.db` });
  try {
    const plans = [];
    for (const s of statements) plans.push(...(await explain.execute({ sql: `EXPLAIN QUERY PLAN ${s.sql}`, args: s.params as never })).rows.map((r) => String(r.detail)));
    return plans.join("\n");
  } finally {
    explain.close();
  }
}

describe("a project's proposals", () => {
  it("a new proposal's twins are looked up by the project's index", async () => {
    const plan = await planOf(() => listPendingInScope(db, { userId: "u1", projectId: "p1", limit: 500 }));
    expect(plan).toMatch(/SEARCH proposals USING INDEX proposals_project_status_idx \(project_id=\? AND status=\?\)/);
    expect(plan).not.toMatch(/SCAN proposals/);
  });

  it("the review queue filtered to a project is too", async () => {
    const filter = { userId: "u1", projectIds: ["p1", "p2"], only: { projectId: "p1" } };
    const plan = await planOf(() => Promise.all([listQueue(db, { ...filter, sort: "newest", limit: 20, after: undefined }), countQueue(db, filter)]));
    expect(plan).toMatch(/proposals_project_status_idx/);
    expect(plan).not.toMatch(/SCAN proposals/);
  });
});

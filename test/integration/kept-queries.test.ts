import { createClient, type Client } from "@libsql/client";
import { drizzle } from "drizzle-orm/libsql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "@/lib/db/client";
import { statementCacheStats } from "@/lib/db/statement-cache";
import { migrate } from "@/lib/db/migrate";
import { readAll } from "@/lib/db/queries/batch-reads";
import { handoffRead, metaRead } from "@/lib/db/queries/context";
import { contextMarkRead } from "@/lib/db/queries/context-marks";
import { changedLearningsRead } from "@/lib/db/queries/learning-index-reads";
import * as schema from "@/lib/db/schema";
import { ROOT, tempDir } from "../support/server";

/**
 * The reads every context makes are built once per database, their values placeholders
 * (lib/db/queries/batch-reads.ts keptQuery): each call must answer for its own values, not for the
 * first call's, in every shape, in one batch with others, and through the statement cache of a file.
 */

const tmp = tempDir("baton-kept-queries-");
let client: Client;
let db: Db;

beforeAll(async () => {
  client = createClient({ url: `file:${tmp.dir}/kept.db` });
  await migrate(client, `${ROOT}/drizzle`);
  db = drizzle(client, { schema }) as unknown as Db;
  const users = ["u1", "u2"].map((id) => ({ sql: "INSERT INTO users (id, name, email, created_at, updated_at) VALUES (?, ?, ?, 0, 0)", args: [id, id, `${id}@example.com`] }));
  const projects = ["p1", "p2"].map((id) => ({ sql: "INSERT INTO projects (id, slug, name, created_by, created_at, updated_at) VALUES (?, ?, ?, 'u1', 0, 0)", args: [id, id, id] }));
  const handoff = (id: string, project: string, user: string, session: string | null, branch: string | null, at: number) => ({
    sql: "INSERT INTO handoffs (id, project_id, user_id, author, markdown, session_id, branch, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    args: [id, project, user, user, `handoff ${id}`, session, branch, at],
  });
  await client.batch(
    [
      ...users,
      ...projects,
      handoff("h1", "p1", "u1", "s1", "feat/a", 1000),
      handoff("h2", "p1", "u2", "s2", "feat/b", 2000),
      handoff("h3", "p1", "u2", null, "main", 3000),
      handoff("h4", "p2", "u1", "s4", "feat/a", 4000),
      { sql: "INSERT INTO context_marks (user_id, last_session_id, last_session_at) VALUES ('u1', 's1', 5000), ('u2', 's2', 6000)", args: [] },
      { sql: "INSERT INTO learnings (id, user_id, project_id, kind, content, source, confirmed, tags, created_at, updated_at) VALUES ('l1', 'u1', 'p1', 'fact', 'one', 'test', 1, '', 0, 0), ('l2', 'u1', null, 'fact', 'two', 'test', 1, '', 0, 0), ('l3', 'u2', null, 'fact', 'three', 'test', 1, '', 0, 0)", args: [] },
    ],
    "write",
  );
});

afterAll(() => {
  client.close();
  tmp.remove();
});

const handoffOf = async (params: Parameters<typeof handoffRead>[1]) => (await readAll(db, { h: handoffRead(db, params) })).h?.markdown ?? null;

describe("kept queries", () => {
  it("answer the handoff for each call's own project, user, branch and session, in all four shapes", async () => {
    // Neither session nor branch: the project's newest.
    expect(await handoffOf({ projectId: "p1", userId: "u1", branch: null, sessionId: null })).toBe("handoff h3");
    expect(await handoffOf({ projectId: "p2", userId: "u1", branch: null, sessionId: null })).toBe("handoff h4");
    // The branch's, before the newest.
    expect(await handoffOf({ projectId: "p1", userId: "u1", branch: "feat/a", sessionId: null })).toBe("handoff h1");
    expect(await handoffOf({ projectId: "p1", userId: "u1", branch: "feat/b", sessionId: null })).toBe("handoff h2");
    expect(await handoffOf({ projectId: "p1", userId: "u1", branch: "nowhere", sessionId: null })).toBe("handoff h3");
    // The session's own, and only its own user's.
    expect(await handoffOf({ projectId: "p1", userId: "u2", branch: null, sessionId: "s2" })).toBe("handoff h2");
    expect(await handoffOf({ projectId: "p1", userId: "u1", branch: null, sessionId: "s2" })).toBe("handoff h3");
    expect(await handoffOf({ projectId: "p1", userId: "u1", branch: "feat/b", sessionId: "s1" })).toBe("handoff h1");
    expect(await handoffOf({ projectId: "p2", userId: "u2", branch: "feat/a", sessionId: "s4" })).toBe("handoff h4");
  });

  it("answer each user's marks and the changes after each point, side by side in one batch", async () => {
    const r = await readAll(db, {
      meta: metaRead(db),
      m1: contextMarkRead(db, { userId: "u1" }),
      m2: contextMarkRead(db, { userId: "u2" }),
      none: contextMarkRead(db, { userId: "nobody" }),
      all: changedLearningsRead(db, 0),
      later: changedLearningsRead(db, 1, 1),
    });
    expect(r.meta.learningsChanged).toBe(3);
    expect([r.m1.lastSessionId, r.m1.lastSessionAt?.getTime()]).toEqual(["s1", 5000]);
    expect([r.m2.lastSessionId, r.m2.lastSessionAt?.getTime()]).toEqual(["s2", 6000]);
    expect(r.none.lastSessionId).toBeNull();
    expect(r.all.map((c) => c.learning?.id)).toEqual(["l1", "l2", "l3"]);
    expect(r.later.map((c) => c.learning?.id)).toEqual(["l2"]);
  });

  it("answer the same through the kept statements a file database reads with (openDatabase), call after call", async () => {
    const cached = openDatabase(`file:${tmp.dir}/kept.db`);
    try {
      expect(statementCacheStats(cached.client)).toBeDefined();
      for (const [user, session] of [["u1", "s1"], ["u2", "s2"], ["u1", "s1"]] as const) {
        const r = await readAll(cached.db, { mark: contextMarkRead(cached.db, { userId: user }), h: handoffRead(cached.db, { projectId: "p1", userId: user, branch: "feat/b", sessionId: session }) });
        expect(r.mark.lastSessionId).toBe(session);
        expect(r.h?.markdown).toBe(`handoff h${user === "u1" ? 1 : 2}`);
      }
      expect(statementCacheStats(cached.client)!.reused).toBeGreaterThan(0);
    } finally {
      cached.client.close();
    }
  });
});

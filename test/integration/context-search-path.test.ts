import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionPrincipal } from "@/lib/auth/principal";
import type { Db } from "@/lib/db/client";
import { contextQuerySchema } from "@/lib/context/context-query";
import { readContext } from "@/lib/context/read/read-context";
import { searchIndexAt } from "@/lib/context/search/index-sync";
import { within } from "../support/cluster";
import { migratedDatabase, learningRow } from "../support/migrated-db";
import { tempDir } from "../support/server";
import { testWorld } from "../support/world";

/**
 * A context says where its learnings were searched (x-baton-search): by SQL (FTS5) until the
 * learnings' index is in memory (or when it cannot hold the store, or lags a bulk write), in memory
 * once it is, not at all when the hints name no word to search for. A benchmark reads it to say which
 * path its figures measured.
 */
const world = testWorld({ users: ["ana"], projects: { alpha: "ana" }, members: [], tokens: {} });

describe("x-baton-search", () => {
  it("memory once the index is loaded, none without a word to search for, nothing on a kept answer", async () => {
    const ana = world.as("ana");
    for (const content of ["Flamingo deploys run at noon", "The flamingo cache is warmed by cron"]) {
      expect((await ana("POST", "/api/learnings", { kind: "pattern", content, project: "alpha", confirmed: true })).status).toBe(201);
    }
    let n = 0;
    // A new session each time: a question asked again is answered from the response cache.
    const path = async () => {
      const answer = await ana("GET", `/api/context?project=alpha&format=text&q=flamingo%20deploys&sessionId=s${n++}`);
      expect(answer.status).toBe(200);
      expect(answer.text).toContain("Flamingo deploys run at noon");
      expect(["memory", "sql"]).toContain(answer.headers.get("x-baton-search"));
      return answer.headers.get("x-baton-search");
    };
    expect(await within(10_000, async () => (await path()) === "memory"), "never searched in memory").not.toBeNull();
    const plain = await ana("GET", "/api/context?project=alpha&format=text");
    expect(plain.status).toBe(200);
    expect(plain.headers.get("x-baton-search")).toBe("none");
    // A kept answer searched nothing: it says it was kept, and no path.
    const again = await ana("GET", "/api/context?project=alpha&format=text");
    expect([again.headers.get("x-baton-cache"), again.headers.get("x-baton-search"), again.text]).toEqual(["hit", null, plain.text]);
  });
});

describe("a context's reads say where they searched", () => {
  const tmp = tempDir("baton-search-path-");
  let db: Db;
  let close: () => void;

  beforeAll(async () => {
    const rows = ["Flamingo deploys run at noon", "The flamingo cache is warmed by cron", "Release notes go in CHANGELOG.md"].map((content, i) => learningRow(`l${i}`, content, i));
    ({ db, close } = await migratedDatabase(`file:${tmp.dir}/baton.db`, { slug: "alpha", rows }));
  });
  afterAll(() => {
    close();
    tmp.remove();
  });

  it("sql before the index is in memory, memory once it is, null with no word to search for", async () => {
    const read = (q: Record<string, string>) => readContext(db, sessionPrincipal("u1"), contextQuerySchema.parse({ project: "alpha", ...q }), 20);
    // The first context starts loading the index and searches with statements meanwhile.
    const first = await read({ q: "flamingo deploys" });
    expect(first.searched).toBe("sql");
    expect(first.matches.map((m) => m.id)).toContain("l0");
    expect(await searchIndexAt(db, 3)).not.toBeNull();
    const next = await read({ q: "flamingo deploys", sessionId: "later" });
    expect(next.searched).toBe("memory");
    expect(next.matches.map((m) => m.id)).toEqual(first.matches.map((m) => m.id));
    expect((await read({})).searched).toBeNull();
    // A word no learning holds is not searched for: the recent ones are listed, and the path says so.
    const unknown = await read({ q: "zebra", sessionId: "unknown" });
    expect(unknown.searched).toBeNull();
    expect(unknown.matches).toEqual([]);
  });
});

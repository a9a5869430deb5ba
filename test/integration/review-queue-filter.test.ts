import { describe, expect, it } from "vitest";
import { sessionPrincipal } from "@/lib/auth/principal";
import { openDatabase } from "@/lib/db/client";
import { reviewQueue } from "@/lib/proposals/review-queue";
import { PERSONAL_ONLY } from "@/lib/rules";
import { emailOf, testWorld } from "../support/world";

// The review queue's project filter: "Personal only" is a value no slug can take, so a project named
// "personal" is a project like any other. ana owns the project "personal"; bo owns "web".
const world = testWorld({ users: ["ana", "bo"], projects: { personal: "ana", web: "bo" }, members: [], tokens: {}, tempPrefix: "baton-queue-filter-" });

async function queue(user: string, project: string | undefined) {
  const userId = String((await world.sql("SELECT id FROM users WHERE email = ?", [emailOf(user)]))[0]!.id);
  const db = openDatabase(world.databaseUrl);
  try {
    return (await reviewQueue(db.db, sessionPrincipal(userId), { sort: "newest", project })).items.map((p) => p.content);
  } finally {
    db.client.close();
  }
}

describe("the review queue's project filter", () => {
  it("a project named 'personal' filters to its proposals; Personal only to the user's own", async () => {
    const propose = (who: string, content: string, project?: string) => world.as(who)("POST", "/api/proposals", { kind: "pattern", content, ...(project ? { project } : {}) });
    expect((await propose("ana", "The personal project deploys on Fridays.", "personal")).status).toBe(201);
    expect((await propose("ana", "I prefer small pull requests.")).status).toBe(201);
    expect((await propose("bo", "I write the failing test first.")).status).toBe(201);

    expect(await queue("ana", "personal")).toEqual(["The personal project deploys on Fridays."]);
    expect(await queue("ana", PERSONAL_ONLY)).toEqual(["I prefer small pull requests."]);
    expect((await queue("ana", undefined)).sort()).toEqual(["I prefer small pull requests.", "The personal project deploys on Fridays."]);
    // A link from before the filter value changed still means bo's own: bo has no project of that name.
    expect(await queue("bo", "personal")).toEqual(["I write the failing test first."]);
  });
});

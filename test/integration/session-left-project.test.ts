import { describe, expect, it } from "vitest";
import { waitFor } from "../fixtures/cli/cli-env";
import { testWorld } from "../support/world";

// A session's later stages follow its start's project only while the user is still its member: someone
// who leaves a project gets nothing of it from a session started there (the instance remembers the start
// for a minute; the table, read with the membership, decides).

const world = testWorld({ users: ["ana", "bo"], projects: { alpha: "ana" }, members: [{ project: "alpha", user: "bo", role: "member" }], tokens: {} });
const ana = world.as("ana");
const bo = world.as("bo");
const SESSION = "left-alpha-1";

describe("a session of someone who has left its project", () => {
  it("gets none of the project's learnings at a prompt, no project, and files no handoff there", async () => {
    expect((await bo("GET", `/api/context?project=alpha&sessionId=${SESSION}`)).status).toBe(200);
    await waitFor("the start recorded", async () => (await world.sql("SELECT project_id FROM session_projects WHERE session_id = ?", [SESSION])).length > 0);
    expect((await bo("DELETE", "/api/projects/alpha/members/me")).status).toBe(200);
    const secret = { kind: "pattern", content: "zqxleak: the alpha deploy password lives in vault path ops/alpha", project: "alpha" };
    expect((await ana("POST", "/api/learnings", secret)).status).toBe(201);

    const prompt = await bo("GET", `/api/context/prompt?sessionId=${SESSION}&q=${encodeURIComponent("zqxleak deploy vault")}&format=text`);
    expect(prompt.status).toBe(200);
    expect(prompt.text).not.toContain("zqxleak");
    const project = await bo("GET", `/api/context/project?sessionId=${SESSION}`);
    expect(project.status, project.text).toBe(200);
    expect(project.json.project).toBeNull();
    const handoff = await bo("POST", "/api/handoffs", { markdown: "# done\nShipped.", sessionId: SESSION });
    expect([handoff.status, handoff.json.handoff]).toEqual([200, null]);
    // ana, still a member, is answered from alpha as before.
    expect((await ana("GET", `/api/context/prompt?sessionId=ana-1&project=alpha&q=${encodeURIComponent("zqxleak deploy vault")}&format=text`)).status).toBe(200);
  });
});

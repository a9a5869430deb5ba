import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli";
import { tempDir } from "../support/server";
import { emailOf, testWorld } from "../support/world";
import { homeEnv } from "../fixtures/cli/cli-env";

// `baton invites` run as a person runs it (the real CLI, a child process whose stdout is a pipe, so
// JSON): lists the invitations waiting for them, accepts one, declines another.

const world = testWorld({ users: ["ana", "bo"], projects: { web: "ana", docs: "ana" }, members: [], tokens: { boRead: { user: "bo", scope: "read" } }, tempPrefix: "baton-cli-invites-" });
const tmp = tempDir("baton-cli-invites-home-");
afterAll(() => tmp.remove());

const baton = (args: string[], who = "bo") =>
  runCli(["invites", ...args], { cwd: tmp.dir, env: homeEnv(path.join(tmp.dir, "home"), { BATON_URL: world.server.url, BATON_TOKEN: world.tokens[who]! }) });

describe("baton invites", () => {
  it("lists pending invitations as JSON, accepts one and declines another", async () => {
    for (const slug of ["web", "docs"]) expect((await world.as("ana")("POST", `/api/projects/${slug}/invitations`, { email: emailOf("bo"), role: slug === "web" ? "member" : "viewer" })).status).toBe(202);

    const listed = await baton([]);
    expect(listed.code, listed.stderr).toBe(0);
    const { ok, items } = JSON.parse(listed.stdout);
    expect(ok).toBe(true);
    expect(items.map((i: { project: { slug: string }; role: string; invitedBy: { email: string } }) => [i.project.slug, i.role, i.invitedBy.email])).toEqual([
      ["web", "member", emailOf("ana")],
      ["docs", "viewer", emailOf("ana")],
    ]);
    expect(items[0].createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);

    const accepted = await baton(["accept", "web"]);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(JSON.parse(accepted.stdout)).toEqual({ ok: true, project: { slug: "web", name: "WEB", role: "member" } });
    expect((await world.as("bo")("GET", "/api/projects/web")).status).toBe(200);

    const declined = await baton(["decline", "docs"]);
    expect(declined.code, declined.stderr).toBe(0);
    expect(JSON.parse(declined.stdout)).toEqual({ ok: true, declined: "docs" });
    expect((await world.as("bo")("GET", "/api/projects/docs")).status).toBe(404);
    expect(JSON.parse((await baton(["list"])).stdout)).toEqual({ ok: true, items: [] });
  });

  it.each([
    ["no invitation to that project", ["accept", "docs"], "bo", 4, "No pending invitation"],
    ["no project named", ["accept"], "bo", 2, "a project is required"],
    ["not a slug", ["decline", "Not A Slug"], "bo", 2, "not a project slug"],
    ["an unknown subcommand", ["join", "web"], "bo", 2, "unknown invites command"],
    ["a read token accepting", ["accept", "web"], "boRead", 6, "read scope"],
  ])("fails with a typed exit code: %s", async (_what, args, who, code, message) => {
    const res = await baton(args, who);
    expect(res.code, res.stderr).toBe(code);
    expect(res.stderr).toContain(message);
  });

  it("has --help", async () => {
    const res = await baton(["--help"]);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("baton invites accept|decline <project>");
  });
});

import { describe, expect, it } from "vitest";
import { deriveProject, repoNameOfRemote, toSlug } from "@/cli/src/config/derive-project";

describe("the project a directory belongs to", () => {
  it.each([
    ["git@github.com:acme/web.git", "web"],
    ["https://github.com/acme/web", "web"],
    ["https://github.com/acme/web.git/", "web"],
    ["ssh://git@gitlab.example.com:2222/group/sub/Api-Server.git", "Api-Server"],
    ["/srv/git/tools.git", "tools"],
    ["C:\\repos\\thing", "thing"],
  ])("%s names the repository %s", (remote, name) => {
    expect(repoNameOfRemote(remote)).toBe(name);
  });

  it.each([
    ["Api-Server", "api-server"],
    ["my_project.v2", "my-project-v2"],
    ["--x--", "x"],
    ["Ünïcode", "n-code"],
    ["___", null],
  ])("%s as a slug is %s", (name, slug) => {
    expect(toSlug(name)).toBe(slug);
  });

  it("prefers configuration, then the remote, then the directory", () => {
    const base = { repoRoot: "/home/ana/src/My Web", cwd: "/home/ana/src/My Web/pkg" };
    expect(deriveProject({ ...base, configured: "web", remote: "git@x:a/b.git" })).toEqual({ slug: "web", from: "config" });
    expect(deriveProject({ ...base, configured: null, remote: "git@x:a/b.git" })).toEqual({ slug: "b", from: "git remote" });
    expect(deriveProject({ ...base, configured: null, remote: null })).toEqual({ slug: "my-web", from: "directory" });
    expect(deriveProject({ configured: null, remote: null, repoRoot: null, cwd: "/tmp/notes" })).toEqual({ slug: "notes", from: "directory" });
  });
});

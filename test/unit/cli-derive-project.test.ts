import { describe, expect, it } from "vitest";
import { guessSlug, projectHints, repoNameOfRemote, toSlug } from "@/cli/src/config/derive-project";

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

  it("guesses from the remote, then the directory", () => {
    const base = { repoRoot: "/home/ana/src/My Web", cwd: "/home/ana/src/My Web/pkg" };
    expect(guessSlug({ ...base, remote: "git@x:a/b.git" })).toBe("b");
    expect(guessSlug({ ...base, remote: null })).toBe("my-web");
    expect(guessSlug({ remote: null, repoRoot: null, cwd: "/tmp/notes" })).toBe("notes");
  });

  it("sends the configured slug as the project and the guess apart, never the guess as the project", () => {
    const where = { repoRoot: "/src/web-app", cwd: "/src/web-app", remote: "git@github.com:acme/web-app.git" };
    expect(projectHints({ ...where, configured: null })).toEqual({ guess: "web-app", cwd: "/src/web-app", remote: "git@github.com:acme/web-app.git" });
    expect(projectHints({ ...where, configured: "alpha" })).toEqual({ project: "alpha", guess: "web-app", cwd: "/src/web-app", remote: "git@github.com:acme/web-app.git" });
  });
});

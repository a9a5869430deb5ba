import { describe, expect, it } from "vitest";
import { matchProject, type Matcher } from "@/lib/context/project/match-project";

// Which of the user's projects a session is in when several matchers fit (issue 21): the most specific
// matcher wins, then the project the user joined first.
const m = (slug: string, kind: Matcher["kind"], pattern: string, joinedAt: number): Matcher => ({ slug, kind, pattern, joinedAt });
const here = { cwd: "/home/ana/src/acme/web-app", remote: "git@github.com:acme/web-app.git" };

describe("matchProject", () => {
  it.each([
    { name: "a remote beats a directory, even one joined earlier", matchers: [m("dir", "cwd", "acme/web-app", 1), m("remote", "remote", "https://github.com/acme/web-app", 9)], want: "remote" },
    { name: "a longer directory suffix beats a shorter", matchers: [m("short", "cwd", "web-app", 1), m("long", "cwd", "src/acme/web-app", 9)], want: "long" },
    { name: "the same remote twice: the project joined first", matchers: [m("later", "remote", "github.com/acme/web-app", 9), m("first", "remote", "ssh://git@github.com/acme/web-app.git", 1)], want: "first" },
    { name: "the same directory suffix twice: the project joined first", matchers: [m("later", "cwd", "acme/web-app", 9), m("first", "cwd", "acme/web-app/", 1)], want: "first" },
    { name: "a matcher of another repository fits nothing", matchers: [m("other", "remote", "github.com/acme/web", 1), m("other-dir", "cwd", "acme/web", 1)], want: null },
  ])("$name", ({ matchers, want }) => {
    expect(matchProject(matchers, here)).toBe(want);
    expect(matchProject([...matchers].reverse(), here)).toBe(want);
  });
});

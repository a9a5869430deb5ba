import { describe, expect, it } from "vitest";
import { buildContext } from "@/lib/context/pack/build-context";
import { countTokens } from "@/lib/context/pack/tokenizer";
import { seedFileSchema } from "@/lib/seeds/seed-file";
import { contextData as data, contextOptions as options } from "../support/context-data";

// What the context says about itself: the repository it could not map, task memory CLAUDE.local.md
// imports. Pure: data in, text out.
const personal = { project: null, activeTask: null, handoff: null };

describe("the mapping line", () => {
  it.each([
    { remote: "git@github.com:acme/web-app.git", cwd: "/home/ana/src/web-app", tried: "origin acme/web-app or directory /home/ana/src/web-app" },
    { remote: "https://gitlab.example.com/group/sub/app", cwd: null, tried: "origin group/sub/app" },
    { remote: "ssh://git@localhost:2222/acme/api.git", cwd: null, tried: "origin acme/api" },
    { remote: "/srv/git/web.git", cwd: null, tried: "origin /srv/git/web" },
    { remote: null, cwd: "/tmp/notes", tried: "directory /tmp/notes" },
  ])("names $tried, once, right after identity", ({ remote, cwd, tried }) => {
    const built = buildContext(data({ ...personal, unmapped: { remote, cwd } }), options(), countTokens);
    const lines = built.context.split("\n");
    const at = lines.findIndex((l) => l.startsWith("Project: "));
    expect(lines[at]).toBe(
      `Project: none of yours matches ${tried}, so this context is personal only. Mapping: a matcher in a project's settings (https://baton.test/settings/projects) or {"project": "<slug>"} in .baton.json.`,
    );
    expect(lines.filter((l) => l.startsWith("Project: "))).toHaveLength(1);
    expect(built.sections.map((s) => s.name)).toEqual(["identity", "mapping", "learnings", "proposals", "state"]);
    expect(built.context).not.toMatch(/\b(must|should|please|you need)\b/i);
  });

  it("is absent when the repository mapped (or nothing was tried), and kept whole by the smallest budget", () => {
    expect(buildContext(data(), options(), countTokens).context).not.toContain("Project: none");
    expect(buildContext(data({ ...personal, unmapped: null }), options(), countTokens).context).not.toContain("Project: none");
    const tight = buildContext(data({ ...personal, unmapped: { remote: null, cwd: "/tmp/x" } }), options({ budget: 200, mode: "complement" }), countTokens);
    expect(tight.context.split("\n")[0]).toMatch(/^Project: none of yours matches directory \/tmp\/x/);
  });
});

describe("task memory CLAUDE.local.md imports", () => {
  it("is one line naming the file instead of its content; otherwise the content is there", () => {
    const imported = buildContext(data({ activeTask: { ...data().activeTask!, imported: true } }), options(), countTokens).context;
    expect(imported).toContain("## Active task: task-368 (memory updated 3 h ago; CLAUDE.local.md imports it from backlog/memory/task-368.md)\n\n## Last handoff");
    expect(imported).not.toContain("- [ ] routes");
    expect(buildContext(data(), options(), countTokens).context).toContain("- [ ] routes");
  });
});

describe("seed.json's version", () => {
  const seed = (version: string) => seedFileSchema.safeParse({ version, identity: { aiName: "Ivy", principalName: "Jens" } });
  it.each([
    ["1.0.0", "1.0.0"],
    ["1.0", "1.0.0"],
    ["2", "2.0.0"],
    [" 1.2 ", "1.2.0"],
  ])("%j is read as %j", (given, stored) => {
    expect(seed(given).data?.version).toBe(stored);
  });
  it.each(["1.0.0.0", "v1.0", "1.", "one", ""])("%j is refused", (given) => {
    expect(seed(given).success).toBe(false);
  });
});

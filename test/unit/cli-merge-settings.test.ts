import { describe, expect, it } from "vitest";
import { stdioMcpServer } from "@/cli/src/agents/install-files";
import { isBatonHook, mergeHooks, mergeMcp, MergeError } from "@/cli/src/commands/merge-settings";

const entries = [
  { event: "SessionStart" as const, command: "npx baton hook session-start", subcommand: "session-start" },
  { event: "SessionEnd" as const, command: "npx baton hook session-end", subcommand: "session-end" },
];

describe("merging Baton into Claude Code's settings", () => {
  it.each([
    ["npx baton hook session-start", true],
    ["node /x/cli/bin/baton.mjs hook session-start", true],
    ['node "/path with space/baton.mjs" hook session-start', true],
    ["/usr/local/bin/baton hook session-start --verbose", true],
    ["npx baton hook session-start-other", false],
    ["npx notbaton hook session-start", false],
    ["echo baton hook", false],
    ["/usr/local/bin/my-baton hook session-start", false],
    ["baton.old hook session-start", false],
    ["node '/odd $dir/baton.mjs' hook session-start", true],
  ])("%s is ours: %s", (command, ours) => {
    expect(isBatonHook(command, "session-start")).toBe(ours);
  });

  it("adds to an empty file, then changes nothing", () => {
    const first = mergeHooks({}, entries);
    expect(first.changes).toEqual(["added the SessionStart hook", "added the SessionEnd hook"]);
    const second = mergeHooks(first.settings, entries);
    expect(second.changes).toEqual([]);
    expect(second.settings).toEqual(first.settings);
  });

  it("never changes its input", () => {
    const input = { hooks: { SessionStart: [{ hooks: [{ type: "command", command: "baton hook session-start" }] }] } };
    const copy = structuredClone(input);
    mergeHooks(input, entries);
    expect(input).toEqual(copy);
  });

  it.each([{ hooks: [] }, { hooks: { SessionStart: {} } }])("refuses a shape it does not know: %j", (input) => {
    expect(() => mergeHooks(input, entries)).toThrow(MergeError);
  });

  it("replaces an old HTTP entry (its ${BATON_TOKEN} header included) by the stdio bridge, keeping other servers and non-transport keys", () => {
    const input = { mcpServers: { other: { command: "x" }, baton: { type: "http", url: "http://old/api/mcp", timeout: 5, headers: { Authorization: "Bearer ${BATON_TOKEN}" } } } };
    const server = { type: "stdio", ...stdioMcpServer('node "/path with space/baton.mjs"') };
    const { mcp, changes } = mergeMcp(input, server);
    expect(changes).toEqual(['updated the "baton" MCP server']);
    expect(mcp).toEqual({
      mcpServers: {
        other: { command: "x" },
        baton: { type: "stdio", command: "node", args: ["/path with space/baton.mjs", "mcp"], timeout: 5 },
      },
    });
    expect(mergeMcp(mcp, server).changes).toEqual([]);
  });

  it("replaces Gemini's own HTTP entry too (httpUrl, which Gemini prefers to a command)", () => {
    const input = { mcpServers: { baton: { httpUrl: "https://b/api/mcp", headers: { Authorization: "Bearer $BATON_TOKEN" }, trust: true } } };
    const { mcp } = mergeMcp(input, stdioMcpServer("baton"));
    expect(mcp).toEqual({ mcpServers: { baton: { command: "baton", args: ["mcp"], trust: true } } });
  });
});

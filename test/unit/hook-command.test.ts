import { describe, expect, it } from "vitest";
import { hookCommand, readHookCommand } from "@/cli/src/agents/hook-command";
import { installedCommands } from "@/cli/src/commands/installed-commands";
import { mergeHooks } from "@/cli/src/commands/merge-settings";

const runners = ["baton", 'node "/path with space/baton.mjs"', "/opt/bt", "node '/odd $dir/cli/dist/baton.mjs'"];
const planned = (before: string) => ({ file: "/x/settings.json", before, after: before, changes: [] });
const settingsWith = (command: string) => JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: "command", command }] }] } }, null, 2);

describe("a hook's command line, written and read back by one grammar", () => {
  it.each(runners.flatMap((runner) => [undefined, "codex", "gemini"].map((agent) => [runner, agent] as const)))("%s --agent %s", (runner, agent) => {
    const line = hookCommand(runner, "session-start", agent);
    expect(readHookCommand(line, "session-start")).toEqual({ runner, agent: agent ?? null });
    expect(readHookCommand(line, "prompt")).toBeNull();
    expect(installedCommands([planned(settingsWith(line))])).toEqual([runner]);
  });

  it("doctor finds what install recognises as Baton's, spaces and all", () => {
    // A line edited by hand with runs of spaces: install updates it in place as Baton's own
    // (`--agent` is Baton's flag), so doctor must read the same runner from it.
    const edited = 'node "/x y/baton.mjs"   hook  session-start   --agent gemini';
    const merged = mergeHooks(JSON.parse(settingsWith(edited)), [{ event: "SessionStart", command: hookCommand("bt", "session-start", "gemini"), subcommand: "session-start" }]);
    expect(merged.changes).toEqual(["updated the SessionStart hook"]);
    expect(installedCommands([planned(settingsWith(edited))])).toEqual(['node "/x y/baton.mjs"']);
  });

  it("reads only whole hook lines among a config's other strings", () => {
    const text = JSON.stringify({ note: 'say "hook session-start" to it', hooks: { SessionStart: [{ hooks: [{ command: "echo hi" }, { command: "bt hook session-start" }] }] } });
    expect(installedCommands([planned(text), planned("not json at all \"unclosed")])).toEqual(["bt"]);
  });
});

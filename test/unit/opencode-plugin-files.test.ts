import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PLUGIN_FILES_KEEP_MS, pluginDir, writeAtomically } from "@/cli/src/agents/opencode/plugin-hooks";

// The opencode plugin copies each session's messages to a file for the hooks (plugin-transcript.ts):
// kept for a day, long enough for every hook and worker, not for ever.

const root = mkdtempSync(path.join(tmpdir(), "baton-opencode-files-"));
const previous = process.env.XDG_CACHE_HOME;
process.env.XDG_CACHE_HOME = root;
afterAll(() => {
  process.env.XDG_CACHE_HOME = previous;
  rmSync(root, { recursive: true, force: true });
});

describe("the opencode plugin's session files", () => {
  it("are deleted once older than PLUGIN_FILES_KEEP_MS, when the plugin next writes one", () => {
    const dir = pluginDir();
    mkdirSync(dir, { recursive: true });
    const old = [path.join(dir, "ses_old.jsonl"), path.join(dir, "ses_old.stop.json")];
    const recent = path.join(dir, "ses_recent.jsonl");
    for (const file of [...old, recent]) writeFileSync(file, "{}\n");
    const then = (Date.now() - PLUGIN_FILES_KEEP_MS - 60_000) / 1000;
    for (const file of old) utimesSync(file, then, then);
    writeAtomically(path.join(dir, "ses_new.jsonl"), "{}\n");
    expect(old.map(existsSync)).toEqual([false, false]);
    expect([recent, path.join(dir, "ses_new.jsonl")].map(existsSync)).toEqual([true, true]);
  });
});

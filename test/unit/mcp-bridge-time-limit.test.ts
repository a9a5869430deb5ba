import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const SCRIPT = path.join(__dirname, "../fixtures/cli/mcp/forward-hung.ts");

describe("baton mcp's time limit on a server that never answers", () => {
  it("holds while garbage is collected: the request fails as a timeout, unanswered, not held for good", async () => {
    // Killed at 30 s: on Node 20 a limit made of AbortSignal.any over AbortSignal.timeout never fired once collected.
    const { stdout } = await promisify(execFile)(process.execPath, ["--expose-gc", "--import", "tsx", SCRIPT, "1500"], { timeout: 30_000 });
    const outcome = JSON.parse(stdout);
    expect(outcome).toMatchObject({ unanswered: [1], cancelled: false, failure: { data: { reason: "timeout" } } });
  }, 40_000);
});

import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const SCRIPT = path.join(__dirname, "../fixtures/db/query-hung-in-route.ts");

describe("a query to a libSQL server that never answers, from a route handler", () => {
  it("ends at the request time limit while garbage is collected: unavailable (a 503), its connection closed, not held until the server answers", async () => {
    // Killed at 30 s: through Next.js's fetch, a limit of AbortSignal.timeout never reached the socket once collected.
    const { stdout } = await promisify(execFile)(process.execPath, ["--expose-gc", "--conditions=react-server", "--import", "tsx", SCRIPT, "1500"], { timeout: 30_000 });
    const outcome = JSON.parse(stdout) as { answered: boolean; unavailable: boolean; ms: number; requests: number; closed: number[] };
    expect(outcome).toMatchObject({ answered: false, unavailable: true });
    // Well short of the kill: the limit ended it, whatever the machine's speed.
    expect(outcome.ms).toBeLessThan(15_000);
    // And the abort reached the socket: a stall under load does not leave a connection open per request.
    expect(outcome.requests).toBeGreaterThan(0);
    expect(outcome.closed).toHaveLength(outcome.requests);
  }, 40_000);
});

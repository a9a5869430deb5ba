import { createInterface } from "node:readline";
import { requireServer } from "../config/server-context";
import { EXIT } from "../exit-codes";
import { parseOptions } from "../output/parse-options";
import { note } from "../output/print";
import { createStdioBridge } from "./stdio-bridge";

/**
 * A tool call may take a while (a large search, a busy server); the MCP client's own request
 * timeout (60 s in the official SDKs) normally fires first and cancels. The hooks' 2 s is far too short.
 */
const MCP_TIMEOUT_MS = 120_000;

/**
 * `baton mcp`: MCP over stdio for clients that speak nothing else, bridged to the server's
 * /api/mcp with the configured token. stdout carries JSON-RPC only; everything else goes to stderr.
 * Exits 0 when stdin ends, once every request in flight has its answer.
 */
export async function runMcp(args: string[]): Promise<number> {
  parseOptions(args, {});
  const { config, url, token } = requireServer();

  const bridge = createStdioBridge(
    {
      endpoint: `${url}/api/mcp`,
      token,
      timeoutMs: Math.max(config.timeoutMs, MCP_TIMEOUT_MS),
      connection: { protocolVersion: null, sessionId: null },
      caFile: config.caFile,
    },
    { write: (line) => process.stdout.write(`${line}\n`), log: (message) => note(`mcp: ${message}`) },
  );
  // The client went away (EPIPE): nobody is left to answer, so stop rather than crash on the next write.
  process.stdout.on("error", (error) => {
    note(`mcp: stdout closed (${(error as NodeJS.ErrnoException).code ?? error.message}); stopping.`);
    bridge.abortAll();
    process.stdin.destroy();
  });

  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
  for await (const line of lines) bridge.accept(line);
  await bridge.settled();
  return EXIT.ok;
}

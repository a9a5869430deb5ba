import "server-only";
import { readRequestBody } from "@modelcontextprotocol/server";
import { ApiError, handleApiError } from "../api/errors";
import { nulRefused, parseJsonBody } from "../api/json-body";
import { originFromHeaders } from "../api/origin-from-headers";
import { getConfig } from "../config";
import { getDb } from "../db/client";
import { authenticateBearer } from "../auth/authenticate-bearer";
import { checkTokenRate } from "../rate-limit/token-rate-limit";
import { checkOrigin } from "./check-origin";
import { createMcpServerHandler } from "./create-mcp-server";

/** A request as the MCP handler gets it, and how many JSON-RPC messages it carries. */
type ReadRequest = { request: Request; messages: number };

/**
 * A POST body read within BATON_MAX_BODY_BYTES, as every API route reads one, handed on as a fresh
 * request, read as the API reads a body (lib/api/json-body.ts): NUL refused, lone surrogates made U+FFFD.
 * Text that is not JSON goes on as it is, for the MCP handler to answer with its parse error.
 */
async function withBodyLimit(request: Request, maxBytes: number): Promise<ReadRequest> {
  if (request.method !== "POST") return { request, messages: 1 };
  const body = await readRequestBody(request, maxBytes);
  if (body.tooLarge) throw new ApiError("payload_too_large", `The body is larger than the limit of ${maxBytes} bytes.`);
  let text = body.text;
  // Both come into JSON text only as escapes (decoded UTF-8 holds neither): most bodies are not parsed twice.
  if (text.includes("\\u")) {
    try {
      const read = parseJsonBody(text);
      if (read.hasNul) throw nulRefused();
      if (read.repaired) text = JSON.stringify(read.value);
    } catch (error) {
      if (error instanceof ApiError) throw error;
      // JSON nested past what a reviver can walk would go on unread, lone surrogates and all (a libSQL
      // server refuses the statement): refused as the API refuses it. Not JSON at all: the MCP handler
      // answers it with its parse error.
      if (error instanceof RangeError) throw new ApiError("bad_request", "The body is not valid JSON (nested too deeply).");
    }
  }
  // The length the client declared is of its own text, which a repair changes: the body says its own.
  const headers = new Headers(request.headers);
  headers.delete("content-length");
  return { request: new Request(request.url, { method: "POST", headers, body: text, signal: request.signal }), messages: batchSize(text) };
}

/**
 * The messages of a JSON-RPC batch (an array: the SDK takes up to 100 in one POST, each a call of its
 * own), else 1. Only a body that opens with [ is parsed for it: a single message is not parsed twice.
 */
function batchSize(text: string): number {
  if (!text.trimStart().startsWith("[")) return 1;
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? Math.max(1, value.length) : 1;
  } catch {
    return 1;
  }
}

/**
 * The /api/mcp route: Origin, then the Bearer token, the body limit and the token's rate limit (which
 * counts every message of a batch, so the body is read first), all answered in the API's error shape;
 * only then does the MCP handler see the request.
 */
export async function mcpRoute(request: Request): Promise<Response> {
  try {
    const config = getConfig();
    checkOrigin(request, config.baseUrl);
    const db = getDb();
    const principal = await authenticateBearer(db, request);
    const { request: limited, messages } = await withBodyLimit(request, config.maxBodyBytes);
    if (principal.tokenId) checkTokenRate(db, principal.tokenId, messages);
    const handler = createMcpServerHandler({ db, principal, dashboardUrl: originFromHeaders(request.headers, config.baseUrl) });
    return await handler(limited);
  } catch (error) {
    return handleApiError(error);
  }
}

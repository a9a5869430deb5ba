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

/**
 * A POST body read within BATON_MAX_BODY_BYTES, as every API route reads one, handed on as a fresh
 * request, read as the API reads a body (lib/api/json-body.ts): NUL refused, lone surrogates made U+FFFD.
 * Text that is not JSON goes on as it is, for the MCP handler to answer with its parse error.
 */
async function withBodyLimit(request: Request, maxBytes: number): Promise<Request> {
  if (request.method !== "POST") return request;
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
      // Not JSON (or nested past what a reviver can walk): the MCP handler answers it as it would.
      if (error instanceof ApiError) throw error;
    }
  }
  // The length the client declared is of its own text, which a repair changes: the body says its own.
  const headers = new Headers(request.headers);
  headers.delete("content-length");
  return new Request(request.url, { method: "POST", headers, body: text, signal: request.signal });
}

/**
 * The /api/mcp route: Origin, then the Bearer token and its rate limit, then the body limit, all
 * answered in the API's error shape; only then does the MCP handler see the request.
 */
export async function mcpRoute(request: Request): Promise<Response> {
  try {
    const config = getConfig();
    checkOrigin(request, config.baseUrl);
    const db = getDb();
    const principal = await authenticateBearer(db, request);
    if (principal.tokenId) checkTokenRate(db, principal.tokenId);
    const limited = await withBodyLimit(request, config.maxBodyBytes);
    const handler = createMcpServerHandler({ db, principal, dashboardUrl: originFromHeaders(request.headers, config.baseUrl) });
    return await handler(limited);
  } catch (error) {
    return handleApiError(error);
  }
}

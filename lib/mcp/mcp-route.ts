import "server-only";
import { readRequestBody } from "@modelcontextprotocol/server";
import { ApiError, handleApiError } from "../api/errors";
import { originFromHeaders } from "../api/origin-from-headers";
import { getConfig } from "../config";
import { getDb } from "../db/client";
import { authenticateBearer } from "../auth/authenticate-bearer";
import { checkTokenRate } from "../rate-limit/token-rate-limit";
import { checkOrigin } from "./check-origin";
import { createMcpServerHandler } from "./create-mcp-server";

/**
 * A POST body read within BATON_MAX_BODY_BYTES, as every API route reads one, handed on as a fresh
 * request. NUL is refused as the API refuses it: libSQL would cut stored text at it without a word.
 */
async function withBodyLimit(request: Request, maxBytes: number): Promise<Request> {
  if (request.method !== "POST") return request;
  const body = await readRequestBody(request, maxBytes);
  if (body.tooLarge) throw new ApiError("payload_too_large", `The body is larger than the limit of ${maxBytes} bytes.`);
  if (body.text.includes("\\u0000") && hasNul(body.text)) {
    throw new ApiError("bad_request", "The body contains a NUL character (\\u0000), which Baton cannot store.");
  }
  return new Request(request.url, { method: "POST", headers: request.headers, body: body.text, signal: request.signal });
}

function hasNul(text: string): boolean {
  let found = false;
  try {
    JSON.parse(text, (key, value: unknown) => {
      if ((typeof value === "string" && value.includes("\0")) || key.includes("\0")) found = true;
      return value;
    });
  } catch {
    // Not JSON: the MCP handler answers with a parse error.
  }
  return found;
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

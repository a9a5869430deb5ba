import "server-only";
import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError, type CallToolResult } from "@modelcontextprotocol/server";
import { toFailure, type Failure } from "../api/errors";
import { defuseDeep } from "../context/pack/fence";

/** The seconds a failure asks the client to wait before trying again (Retry-After), when it asks. */
function retryAfterOf(failure: Failure): { retryAfter?: number } {
  const seconds = failure.headers?.["retry-after"];
  return seconds === undefined ? {} : { retryAfter: Number(seconds) };
}

/** Runs a tool's work; a failure becomes an `isError` result the agent can read, never a thrown error. */
export async function runTool(work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await work();
  } catch (error) {
    const failure = toFailure(error);
    const { code, message, reason } = failure;
    return {
      isError: true,
      content: [{ type: "text", text: `${code}: ${message}` }],
      structuredContent: { ok: false, error: { code, message, ...(reason ? { reason } : {}), ...retryAfterOf(failure) } },
    };
  }
}

/**
 * Runs a resource read or list; a failure becomes a JSON-RPC error with the API's code (and Retry-After's
 * seconds) in its data. What the request got wrong (a 4xx: refused input, a project not the caller's, a
 * conflict) is Invalid params; what failed on the server (a 5xx: the database out of reach, a bug) is
 * Internal error, which a client may try again.
 */
export async function runResource<T>(uri: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const failure = toFailure(error);
    const { status, code, message } = failure;
    if (code === "not_found") throw new ResourceNotFoundError(uri, message);
    const rpcCode = status >= 500 ? ProtocolErrorCode.InternalError : ProtocolErrorCode.InvalidParams;
    throw new ProtocolError(rpcCode, `${code}: ${message}`, { uri, code, ...retryAfterOf(failure) });
  }
}

/**
 * A successful tool result: text for the agent, the same facts as structured content for programs. Its
 * strings are defused as the text's quotes are (a host may show its model the structured content alone:
 * Claude Code does), so a teammate's markdown or learning forges no delimiter there either.
 */
export function toolText(text: string, structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text }], structuredContent: { ok: true, ...defuseDeep(structured) } };
}

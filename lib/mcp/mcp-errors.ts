import "server-only";
import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError, type CallToolResult } from "@modelcontextprotocol/server";
import { toFailure } from "../api/errors";

/** Runs a tool's work; a failure becomes an `isError` result the agent can read, never a thrown error. */
export async function runTool(work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await work();
  } catch (error) {
    const { code, message, reason } = toFailure(error);
    return {
      isError: true,
      content: [{ type: "text", text: `${code}: ${message}` }],
      structuredContent: { ok: false, error: { code, message, ...(reason ? { reason } : {}) } },
    };
  }
}

/** Runs a resource read or list; a failure becomes a JSON-RPC error with the API's code in its data. */
export async function runResource<T>(uri: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const { code, message } = toFailure(error);
    if (code === "not_found") throw new ResourceNotFoundError(uri, message);
    const rpcCode = code === "internal_error" ? ProtocolErrorCode.InternalError : ProtocolErrorCode.InvalidParams;
    throw new ProtocolError(rpcCode, `${code}: ${message}`, { uri, code });
  }
}

/** A successful tool result: text for the agent, the same facts as structured content for programs. */
export function toolText(text: string, structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text }], structuredContent: { ok: true, ...structured } };
}

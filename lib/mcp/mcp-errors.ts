import "server-only";
import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError, type CallToolResult } from "@modelcontextprotocol/server";
import { z } from "zod";
import { ApiError } from "../api/errors";
import type { ErrorCode } from "../api/error-codes";

export type Failure = { code: ErrorCode; message: string };

/** Any thrown value as the API would word it; unknown errors are logged and reveal nothing. */
export function describeFailure(error: unknown): Failure {
  if (error instanceof ApiError) return { code: error.code, message: error.message };
  if (error instanceof z.ZodError) {
    const first = error.issues[0];
    const where = first && first.path.length ? ` at ${first.path.join(".")}` : "";
    return { code: "validation_failed", message: `Invalid input${where}: ${first?.message ?? "see the tool's input schema"}` };
  }
  console.error("baton: unexpected error in MCP", error);
  return { code: "internal_error", message: "Something went wrong on the server. It has been logged." };
}

/** Runs a tool's work; a failure becomes an `isError` result the agent can read, never a thrown error. */
export async function runTool(work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await work();
  } catch (error) {
    const failure = describeFailure(error);
    return {
      isError: true,
      content: [{ type: "text", text: `${failure.code}: ${failure.message}` }],
      structuredContent: { ok: false, error: failure },
    };
  }
}

/** Runs a resource read or list; a failure becomes a JSON-RPC error with the API's code in its data. */
export async function runResource<T>(uri: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const failure = describeFailure(error);
    if (failure.code === "not_found") throw new ResourceNotFoundError(uri, failure.message);
    const code = failure.code === "internal_error" ? ProtocolErrorCode.InternalError : ProtocolErrorCode.InvalidParams;
    throw new ProtocolError(code, `${failure.code}: ${failure.message}`, { uri, code: failure.code });
  }
}

/** A successful tool result: text for the agent, the same facts as structured content for programs. */
export function toolText(text: string, structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text }], structuredContent: { ok: true, ...structured } };
}

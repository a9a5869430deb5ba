import { z } from "zod";
import { isDatabaseUnavailable } from "../db/database-unavailable";
import { errorStatus, type ErrorCode } from "./error-codes";

/** How long a client should wait before asking again when the database is out of reach. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/** The one error the domain and the API throw; the guard turns it into the JSON error shape. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly issues?: unknown[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "ApiError";
  }

  get status(): number {
    return errorStatus[this.code];
  }
}

export type ErrorBody = { ok: false; error: { code: ErrorCode; message: string; issues?: unknown[] } };

export function errorResponse(code: ErrorCode, message: string, issues?: unknown[], headers?: Record<string, string>): Response {
  const body: ErrorBody = { ok: false, error: { code, message, ...(issues ? { issues } : {}) } };
  return Response.json(body, { status: errorStatus[code], headers });
}

/** zod issues as sent to clients: where and what, nothing else. */
export function publicIssues(error: z.ZodError): { path: (string | number)[]; message: string; code: string }[] {
  return error.issues.map((i) => ({ path: i.path.map((p) => (typeof p === "symbol" ? String(p) : p)), message: i.message, code: i.code }));
}

/** Any thrown value → a response. Unknown errors are logged and answered with a 500 that reveals nothing. */
export function handleApiError(error: unknown): Response {
  if (error instanceof ApiError) return errorResponse(error.code, error.message, error.issues, error.headers);
  if (error instanceof z.ZodError) {
    const first = error.issues[0];
    const where = first && first.path.length ? ` at ${first.path.join(".")}` : "";
    return errorResponse("validation_failed", `Invalid input${where}: ${first?.message ?? "see issues"}`, publicIssues(error));
  }
  if (isDatabaseUnavailable(error)) {
    return errorResponse("database_unavailable", "The database cannot be reached right now; try again shortly.", undefined, {
      "retry-after": String(DATABASE_RETRY_AFTER_SECONDS),
    });
  }
  console.error("baton: unexpected error", error);
  return errorResponse("internal_error", "Something went wrong on the server. It has been logged.");
}

import { z } from "zod";
import { innermostMessage, isDatabaseUnavailable } from "../db/database-unavailable";
import { noteOutage } from "../db/outage";
import { errorStatus, type ErrorCode, type ErrorReason } from "./error-codes";
import { loggable, withoutSecrets } from "../process/loggable-error";
import { processWide } from "../process/process-state";

/** How long a client should wait before asking again when the database is out of reach. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/** A zod issue as sent to clients: where and what, nothing else. */
export type PublicIssue = { path: (string | number)[]; message: string; code: string };

/** The one error the domain and the API throw; toFailure turns it into what each edge answers. */
export class ApiError extends Error {
  readonly headers?: Record<string, string>;
  readonly reason?: ErrorReason;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly issues?: PublicIssue[],
    options: { headers?: Record<string, string>; reason?: ErrorReason } = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.headers = options.headers;
    this.reason = options.reason;
  }

  get status(): number {
    return errorStatus[this.code];
  }
}

/**
 * Any failure as every edge words it (routes, MCP, server actions, the admin CLI): the HTTP status,
 * the code callers branch on, a message for people, and where there are some the issues, a finer
 * reason and response headers.
 */
export type Failure = {
  status: number;
  code: ErrorCode;
  message: string;
  issues?: PublicIssue[];
  reason?: ErrorReason;
  headers?: Record<string, string>;
};

export type ErrorBody = { ok: false; error: { code: ErrorCode; message: string; issues?: PublicIssue[]; reason?: ErrorReason } };

export const INTERNAL_ERROR_MESSAGE = "Something went wrong on the server. It has been logged.";
export const DATABASE_UNAVAILABLE_MESSAGE = "The database cannot be reached right now; try again shortly.";

export function publicIssues(error: z.ZodError): PublicIssue[] {
  return error.issues.map((i) => ({ path: i.path.map((p) => (typeof p === "symbol" ? String(p) : p)), message: i.message, code: i.code }));
}

/** An error the domain throws on purpose (refused input or request), as opposed to a bug or an outage. */
export function isExpectedError(error: unknown): error is ApiError | z.ZodError {
  return error instanceof ApiError || error instanceof z.ZodError;
}

/** How often at most a 503 for an unavailable database says why in the log (not a line a request). */
const OUTAGE_LOG_EVERY_MS = 60_000;
const outageLog = processWide("outage log", () => ({ at: 0 }));

/** Why requests are answered 503, in the database's own words (a replica with no schema yet, a refused connection). */
function logOutage(error: unknown, now = Date.now()): void {
  if (now - outageLog.at < OUTAGE_LOG_EVERY_MS) return;
  outageLog.at = now;
  console.error(`baton: answering 503, the database is unavailable: ${withoutSecrets(innermostMessage(error))}`);
}

/** Any thrown value → a Failure. Unexpected errors are logged here, once, and reveal nothing. */
export function toFailure(error: unknown): Failure {
  if (error instanceof ApiError) {
    const { status, code, message, issues, reason, headers } = error;
    return { status, code, message, ...(issues ? { issues } : {}), ...(reason ? { reason } : {}), ...(headers ? { headers } : {}) };
  }
  if (error instanceof z.ZodError) {
    const first = error.issues[0];
    const where = first && first.path.length ? ` at ${first.path.join(".")}` : "";
    const message = `Invalid input${where}: ${first?.message ?? "see issues"}`;
    return { status: errorStatus.validation_failed, code: "validation_failed", message, issues: publicIssues(error) };
  }
  if (isDatabaseUnavailable(error)) {
    noteOutage();
    logOutage(error);
    return {
      status: errorStatus.database_unavailable,
      code: "database_unavailable",
      message: DATABASE_UNAVAILABLE_MESSAGE,
      headers: { "retry-after": String(DATABASE_RETRY_AFTER_SECONDS) },
    };
  }
  console.error("baton: unexpected error", loggable(error));
  return { status: errorStatus.internal_error, code: "internal_error", message: INTERNAL_ERROR_MESSAGE };
}

/** A Failure in the API's JSON error shape. */
export function failureResponse(failure: Failure): Response {
  const { status, code, message, issues, reason, headers } = failure;
  const body: ErrorBody = { ok: false, error: { code, message, ...(issues ? { issues } : {}), ...(reason ? { reason } : {}) } };
  return Response.json(body, { status, headers });
}

/** Any thrown value → a response. */
export function handleApiError(error: unknown): Response {
  return failureResponse(toFailure(error));
}

export function errorResponse(code: ErrorCode, message: string): Response {
  return handleApiError(new ApiError(code, message));
}

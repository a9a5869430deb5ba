/** Every error code the API answers with, and its HTTP status. */
export const errorStatus = {
  bad_request: 400,
  validation_failed: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  /** Something that existed and is no more: a `baton login` code that expired or was used. */
  gone: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  /** A `baton login` code nobody has answered yet: ask again after the interval. */
  authorization_pending: 428,
  rate_limited: 429,
  internal_error: 500,
  database_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

/**
 * A finer reason inside one code, sent as `error.reason` where a client must tell cases apart: a task
 * without memory and a project that does not exist are both 404 not_found, but `baton task start`
 * writes a template for the first and stops at the second.
 */
export type ErrorReason =
  | "no_task_memory"
  // `baton login` (RFC 8628's answers, under the code whose status fits): the code was denied
  // (forbidden), is asked about too often (rate_limited), expired or was used already (gone).
  | "denied"
  | "slow_down"
  | "expired"
  | "used";

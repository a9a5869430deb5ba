/** Every error code the API answers with, and its HTTP status. */
export const errorStatus = {
  bad_request: 400,
  validation_failed: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
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
export type ErrorReason = "no_task_memory";

import { ApiError } from "./errors";

/**
 * Opaque pagination cursors: the sort key of the last item of a page, base64url-encoded JSON. Clients
 * pass `nextCursor` back as `cursor`; anything else they send is a 400, not a crash.
 */
export function encodeCursor(key: unknown[]): string {
  return btoa(JSON.stringify(key)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function decodeCursor(cursor: string | undefined, shape: ("number" | "string")[]): unknown[] | undefined {
  if (cursor === undefined || cursor === "") return undefined;
  try {
    const key: unknown = JSON.parse(atob(cursor.replace(/-/g, "+").replace(/_/g, "/")));
    if (Array.isArray(key) && key.length === shape.length && key.every((v, i) => typeof v === shape[i])) return key;
  } catch {
    // fall through to the error
  }
  throw new ApiError("bad_request", "The cursor is not one this server gave out; start again without it.");
}

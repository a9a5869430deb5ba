import { z } from "zod";
import { ApiError } from "../api/errors";

/**
 * Opaque pagination cursors: the sort key of the last item of a page, base64url-encoded JSON. Clients
 * pass `nextCursor` back as `cursor`. A cursor is client input like any other: each list names the
 * parts its key is made of (cursorPart), and whatever does not fit them is a 400, never a value that
 * reaches a query (an offset of 1.5, a time no Date holds) and fails there as a 500.
 */
export function encodeCursor(key: unknown[]): string {
  return btoa(JSON.stringify(key)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Far longer than any key this server gives out (three parts, one of them a short id). */
const MAX_CURSOR_CHARS = 1_000;

/** What the parts of a sort key can be, each bounded as the column it continues after. */
export const cursorPart = {
  /** A time in epoch milliseconds, within the range a Date holds (an import may date a row before 1970). */
  time: z.number().int().min(-8.64e15).max(8.64e15),
  /** A row number or an offset into a ranked list. */
  count: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  /** A whole number of either sign (a session document's priority). */
  integer: z.number().int().safe(),
  /** A score from 0 to 1 (a proposal's confidence). */
  fraction: z.number().min(0).max(1),
  /** A row's id. */
  id: z.string().min(1).max(200),
};

type Parts = [z.ZodType, ...z.ZodType[]];

export function decodeCursor<P extends Parts>(cursor: string | undefined, parts: P): z.output<z.ZodTuple<P, null>> | undefined {
  if (cursor === undefined || cursor === "") return undefined;
  if (cursor.length <= MAX_CURSOR_CHARS) {
    try {
      const key = z.tuple(parts).safeParse(JSON.parse(atob(cursor.replace(/-/g, "+").replace(/_/g, "/"))));
      if (key.success) return key.data;
    } catch {
      // not base64 or not JSON: the same answer as a key of the wrong shape
    }
  }
  throw new ApiError("bad_request", "The cursor is not one this server gave out; start again without it.");
}

import "server-only";
import { ApiError } from "../api/errors";

/**
 * Runs a page's loader and hands back an ApiError (a stale cursor, a project gone) as a value, for the
 * page to explain with a way back; anything unexpected is still thrown.
 */
export async function orApiError<T>(load: () => Promise<T>): Promise<T | ApiError> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
}

import "server-only";
import { z } from "zod";
import { ApiError, toFailure } from "../api/errors";

/**
 * Runs a page's loader and hands back an ApiError (a stale cursor, a project gone, a query its schema
 * refuses: a slug in capitals, a search too long) as a value, for the page to explain with a way back;
 * anything unexpected is still thrown.
 */
export async function orApiError<T>(load: () => Promise<T>): Promise<T | ApiError> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof ApiError) return error;
    if (error instanceof z.ZodError) {
      const { message, issues } = toFailure(error);
      return new ApiError("validation_failed", message, issues);
    }
    throw error;
  }
}

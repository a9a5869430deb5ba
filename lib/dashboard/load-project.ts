import "server-only";
import { notFound } from "next/navigation";
import { ApiError } from "../api/errors";

/**
 * Runs a page's loader for a project and turns "not yours" into the 404 page: a dashboard page does not
 * reveal whether a project it may not read exists.
 */
export async function orNotFound<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof ApiError && (error.code === "not_found" || error.code === "forbidden")) notFound();
    throw error;
  }
}

import "server-only";
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { ApiError } from "../api/errors";
import { processWide } from "../process/process-state";

/** A file of this checkout served as it is (or filled in), with a validator for conditional GETs. */
export type ServedFile = { text: string; etag: string };

const cache = processWide("checkout files", () => new Map<string, { mtimeMs: number; text: string }>());

/**
 * Reads a file of the server's checkout (callers name it from process.cwd(), where `npm start` and
 * `next start` run, in a static expression so the build traces that one file), kept in memory until
 * the file changes. A missing file is a 404 naming what makes it, never a 500.
 */
export function readCheckoutFile(file: string, missing: string): string {
  let mtimeMs: number;
  try {
    mtimeMs = statSync(file).mtimeMs;
  } catch {
    throw new ApiError("not_found", missing);
  }
  const hit = cache.get(file);
  if (hit && hit.mtimeMs === mtimeMs) return hit.text;
  const text = readFileSync(file, "utf8");
  cache.set(file, { mtimeMs, text });
  return text;
}

export const servedFile = (text: string): ServedFile => ({ text, etag: `"${createHash("sha256").update(text).digest("base64url").slice(0, 27)}"` });

/**
 * Clients and proxies revalidate every time (a 304 when nothing changed): a copy kept for minutes after
 * an upgrade is a CLI of the old version, which takes itself for out of date against the new server.
 */
const CACHE_CONTROL = "no-cache";

/** The file, or 304 when the client's copy (If-None-Match) is current. */
export function serveFile(request: Request, file: ServedFile, headers: Record<string, string>): Response {
  const common = { etag: file.etag, "cache-control": CACHE_CONTROL, ...headers };
  const known = request.headers.get("if-none-match")?.split(",").map((tag) => tag.trim().replace(/^W\//, ""));
  if (known?.includes(file.etag)) return new Response(null, { status: 304, headers: common });
  return new Response(file.text, { headers: { ...common, "content-type": headers["content-type"] ?? "text/plain; charset=utf-8" } });
}

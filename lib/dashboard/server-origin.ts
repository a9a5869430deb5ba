import "server-only";
import { headers } from "next/headers";
import { getConfig } from "../config";

/**
 * This server's address as agents and browsers reach it: BATON_BASE_URL when set (behind a proxy that
 * rewrites the host), else the host the request came to, as the API's context route does.
 */
export async function serverOrigin(): Promise<string> {
  const configured = getConfig().baseUrl;
  if (configured) return configured;
  const h = await headers();
  const host = h.get("x-forwarded-host") ?? h.get("host") ?? "localhost:3000";
  const proto = h.get("x-forwarded-proto")?.split(",")[0]?.trim() ?? "http";
  return `${proto}://${host}`;
}

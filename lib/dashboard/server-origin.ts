import "server-only";
import { headers } from "next/headers";
import { originFromHeaders } from "../api/origin-from-headers";
import { getConfig } from "../config";

/** This server's address for a page being rendered (see originFromHeaders). */
export async function serverOrigin(): Promise<string> {
  return originFromHeaders(await headers(), getConfig().baseUrl);
}

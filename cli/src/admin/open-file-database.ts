import { createClient, type Client } from "@libsql/client";
import { pathToFileURL } from "node:url";

/** A libSQL client on a local file named by path (spaces and all). */
export function openFileDatabase(file: string): Client {
  return createClient({ url: pathToFileURL(file).href });
}

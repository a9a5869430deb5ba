import type { Db } from "./client";
import { clientOf } from "./client-of";

/**
 * Whether reads are answered from a file on this machine (an embedded database or an embedded
 * replica) rather than by a libSQL server: locally each statement costs CPU and a round trip costs
 * nothing; on a server, the other way round. The context's reads choose by it.
 */
export function readsLocally(db: Db): boolean {
  const client = clientOf(db);
  return client?.protocol === "file" || client?.readsLocally === true;
}

import type { Principal } from "../../auth/principal";
import type { Db } from "../../db/client";
import { readAll, type Read, type Results } from "../../db/queries/batch-reads";

/**
 * Every batch a context function reads goes through here, so none can forget the token: a token taken
 * as this instance remembered it (principal.tokenCheck, guard's `checkTokenInReads`) is read in the
 * request's first batch and settled before anything read with it is used; `settle` marks it settled,
 * so later batches carry nothing more. Settling throws TokenChanged when the token is gone or changed.
 */
export async function readWithTokenCheck<R extends Record<string, Read<unknown> | undefined>>(db: Db, principal: Principal, reads: R): Promise<Results<R>> {
  const check = principal.tokenCheck?.settled ? undefined : principal.tokenCheck;
  if (!check) return readAll(db, reads);
  const { token, ...results } = await readAll(db, { ...reads, token: check.read });
  check.settle(token);
  return results as Results<R>;
}

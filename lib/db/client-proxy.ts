import type { Client, InArgs, InStatement, ResultSet, TransactionMode } from "@libsql/client";

/** What a wrapper of a libSQL client takes over; execute's two call forms arrive as one statement. */
export type ClientMethods = {
  batch?: (statements: InStatement[], mode?: TransactionMode) => Promise<ResultSet[]>;
  execute?: (statement: InStatement) => Promise<ResultSet>;
  close?: () => void;
};

/**
 * `client` with some of its methods taken over (lib/db/statement-cache.ts, lib/db/bookkeeping.ts);
 * everything else is the client's own, bound to it. The methods are made once, not at each access.
 */
export function overriding(client: Client, methods: ClientMethods): Client {
  const own = new Map<PropertyKey, unknown>();
  const { batch, execute, close } = methods;
  if (batch) own.set("batch", (statements: Array<InStatement | [string, InArgs?]>, mode?: TransactionMode) => batch(statements.map(asStatement), mode));
  if (execute) own.set("execute", (statement: InStatement | string, args?: InArgs) => execute(asStatement(typeof statement === "string" ? [statement, args] : statement)));
  if (close) own.set("close", close);
  return new Proxy(client, {
    get(target, property) {
      if (own.has(property)) return own.get(property);
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

function asStatement(s: InStatement | [string, InArgs?]): InStatement {
  if (typeof s === "string") return s;
  if (Array.isArray(s)) return s[1] === undefined ? s[0] : { sql: s[0], args: s[1] };
  return s;
}

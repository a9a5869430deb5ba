/**
 * The one place that keeps state for the whole server process. Next.js bundles route handlers,
 * server actions and instrumentation apart, each with its own copy of a module, and dev mode
 * evaluates a module again on every reload: a module-level `const` would then be one per bundle and
 * per reload (a rate limit counted apart in each, a database pool leaked at each edit). globalThis is
 * the one object every copy shares, so the values hang there, in one registry under a registered
 * symbol (Symbol.for answers the same symbol to every copy, and no other property can clash with it).
 */
const REGISTRY = Symbol.for("baton.processWide");

type Holder = Record<typeof REGISTRY, Map<string, unknown> | undefined>;

/** The process's one value named `name`, made by `make` on first use. */
export function processWide<T>(name: string, make: () => T): T {
  const registry = ((globalThis as unknown as Holder)[REGISTRY] ??= new Map());
  if (!registry.has(name)) registry.set(name, make());
  return registry.get(name) as T;
}

import { sideClient } from "./side-db";
import { startServer, tempDir, type RunningServer } from "./server";
import { startSqld, type Sqld } from "./sqld";

/** The three ways Baton keeps its database (README "When one machine is not enough"). */
export type ShapeName = "embedded" | "remote" | "replica";

export type Cluster = {
  shape: ShapeName;
  /** Two Baton instances on one database. */
  a: RunningServer;
  b: RunningServer;
  /** Where the admin CLI and direct SQL go: the file, or the primary. */
  adminUrl: string;
  adminEnv: Record<string, string>;
  primary?: Sqld;
  /** Remote shape: the sqld replica instance b reads from. */
  replica?: Sqld;
  /** The most a read on one instance may lag a write on the other (README). */
  stalenessMs: number;
  sql: (query: string, args?: (string | number)[]) => Promise<Record<string, unknown>[]>;
  stop: () => Promise<void>;
};

const SECRET = "cluster-test-secret-0123456789abcdef";
/** A short interval keeps the suite quick; the README documents the default (2 s). */
const SYNC_INTERVAL_SECONDS = 0.5;

/**
 * Starts two Baton instances on one database in the given shape, both at once (so they race to
 * migrate): embedded — one file; remote — a sqld primary (instance a) and its replica (instance b);
 * replica — each instance an embedded replica file synced from a sqld primary.
 */
export async function startCluster(shape: ShapeName, env: Record<string, string> = {}): Promise<Cluster> {
  const tmp = tempDir("baton-cluster-");
  // Instances behind one name share BATON_BASE_URL, so the links in a context are the same from each.
  const common = { BATON_SECRET: SECRET, BATON_BASE_URL: "http://baton.test", ...env };
  let primary: Sqld | undefined;
  let replica: Sqld | undefined;
  let urls: [Record<string, string>, Record<string, string>];
  let adminUrl: string;
  if (shape === "embedded") {
    adminUrl = `file:${tmp.dir}/baton.db`;
    urls = [{ DATABASE_URL: adminUrl }, { DATABASE_URL: adminUrl }];
  } else {
    primary = await startSqld();
    adminUrl = primary.url;
    if (shape === "remote") {
      replica = await startSqld({ primary });
      urls = [{ DATABASE_URL: primary.url }, { DATABASE_URL: replica.url }];
    } else {
      const sync = { DATABASE_SYNC_URL: primary.url, DATABASE_SYNC_INTERVAL: String(SYNC_INTERVAL_SECONDS) };
      urls = [
        { DATABASE_URL: `file:${tmp.dir}/a.db`, ...sync },
        { DATABASE_URL: `file:${tmp.dir}/b.db`, ...sync },
      ];
    }
  }
  const [a, b] = await Promise.all(urls.map((u) => startServer({ databaseUrl: u.DATABASE_URL!, env: { ...common, ...u } })));
  const sql = async (query: string, args: (string | number)[] = []) => {
    const db = sideClient(adminUrl);
    try {
      return (await db.execute({ sql: query, args })).rows as unknown as Record<string, unknown>[];
    } finally {
      db.close();
    }
  };
  return {
    shape,
    a: a!,
    b: b!,
    adminUrl,
    adminEnv: { DATABASE_URL: adminUrl, BATON_SECRET: SECRET },
    primary,
    replica,
    stalenessMs: shape === "replica" ? SYNC_INTERVAL_SECONDS * 1000 : 0,
    sql,
    stop: async () => {
      await Promise.all([a!.stop(), b!.stop()]);
      await replica?.stop();
      await primary?.stop();
      tmp.remove();
    },
  };
}

/** Polls `check` until it returns true or `ms` pass; returns how long it took, or null. */
export async function within(ms: number, check: () => Promise<boolean>): Promise<number | null> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > ms) return null;
    await new Promise((r) => setTimeout(r, 50));
  }
}

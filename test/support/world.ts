import type { InValue } from "@libsql/client";
import { afterAll, beforeAll } from "vitest";
import type { ProjectRole, TokenScope } from "../../lib/rules";
import { apiClient, type ApiClient } from "./api";
import { createProject, createUserWithToken, joinProject } from "./fixtures";
import { startServer, tempDir, type RunningServer } from "./server";
import { sideClient } from "./side-db";

/**
 * Who exists in a test world. Users are `<name>@example.com`, each made by the real admin CLI with a
 * write token under their own name; projects are made through the API by their owner.
 */
export type Cast = {
  users: string[];
  /** slug → owner, created in this order. */
  projects: Record<string, string>;
  members: { project: string; user: string; role: ProjectRole }[];
  /** More tokens of existing users: a read token, or one limited to some projects. */
  tokens: Record<string, { user: string; scope?: TokenScope; projects?: string[] }>;
};

/**
 * The cast most API tests share: ana owns alpha and gamma (bo a member and vi a viewer of alpha),
 * cy owns beta, which nobody else may see; anaRead is ana's read token, anaGammaOnly hers for gamma.
 */
export const STANDARD_CAST: Cast = {
  users: ["ana", "bo", "vi", "cy"],
  projects: { alpha: "ana", gamma: "ana", beta: "cy" },
  members: [
    { project: "alpha", user: "bo", role: "member" },
    { project: "alpha", user: "vi", role: "viewer" },
  ],
  tokens: { anaRead: { user: "ana", scope: "read" }, anaGammaOnly: { user: "ana", projects: ["gamma"] } },
};

/** One project's team: ana owns web, bo is a member, vi a viewer; no extra tokens. */
export const WEB_TEAM: Cast = {
  users: ["ana", "bo", "vi"],
  projects: { web: "ana" },
  members: [
    { project: "web", user: "bo", role: "member" },
    { project: "web", user: "vi", role: "viewer" },
  ],
  tokens: {},
};

/** Small enough that the size tests stay fast, large enough for every ordinary request. */
export const TEST_MAX_BODY_BYTES = "65536";

export type WorldOptions = Partial<Cast> & {
  /** Server environment on top of the clean one (BATON_MAX_BODY_BYTES, EMBEDDINGS_URL, …). */
  env?: Record<string, string>;
  /** How many server instances share the one database file (several processes on one WAL file is how Baton scales out). */
  instances?: number;
  tempPrefix?: string;
};

export const emailOf = (user: string) => `${user}@example.com`;

/**
 * One real server (or several) on a real libSQL file in a temp folder, with the cast made through
 * the real admin CLI and API. The database URL, temp folder and token table exist from the start, so a
 * test file can name them at module level; the servers exist once `start()` has run.
 */
export class World {
  readonly dir: string;
  readonly databaseUrl: string;
  readonly tokens: Record<string, string> = {};
  readonly #removeDir: () => void;
  readonly #options: WorldOptions;
  #servers: RunningServer[] = [];

  constructor(options: WorldOptions = {}) {
    const tmp = tempDir(options.tempPrefix);
    this.dir = tmp.dir;
    this.#removeDir = tmp.remove;
    this.databaseUrl = `file:${tmp.dir}/baton.db`;
    this.#options = options;
  }

  /** The first instance. */
  get server(): RunningServer {
    const first = this.#servers[0];
    if (!first) throw new Error("the world has not started: call start() (testWorld does, in beforeAll)");
    return first;
  }

  get servers(): readonly RunningServer[] {
    return this.#servers;
  }

  /** An API client with the token named `who`, against the first instance; usable before start. */
  as = (who: string): ApiClient => {
    return (...args) => apiClient(this.server.url, this.tokens[who])(...args);
  };

  /** Reads the database file directly, for what the API does not show. */
  sql = async (query: string, args: InValue[] = []) => {
    const db = sideClient(this.databaseUrl);
    try {
      return (await db.execute({ sql: query, args })).rows;
    } finally {
      db.close();
    }
  };

  async start(): Promise<void> {
    const { env = {}, instances = 1 } = this.#options;
    for (let i = 0; i < instances; i++) this.#servers.push(await startServer({ databaseUrl: this.databaseUrl, env }));
    await this.#makeCast({ ...STANDARD_CAST, ...this.#options });
  }

  async #makeCast(cast: Cast): Promise<void> {
    for (const user of cast.users) this.tokens[user] = await createUserWithToken(this.databaseUrl, emailOf(user));
    for (const [slug, owner] of Object.entries(cast.projects)) await createProject(this.server.url, this.tokens[owner]!, slug);
    for (const { project, user, role } of cast.members) {
      const tokens = { owner: this.tokens[cast.projects[project]!]!, member: this.tokens[user]! };
      await joinProject(this.server.url, project, tokens, emailOf(user), role);
    }
    for (const [name, { user, scope, projects }] of Object.entries(cast.tokens)) {
      this.tokens[name] = await createUserWithToken(this.databaseUrl, emailOf(user), { scope, projects, existing: true });
    }
  }

  async stop(): Promise<void> {
    await Promise.all(this.#servers.map((s) => s.stop()));
    this.#removeDir();
  }
}

export async function startWorld(options: WorldOptions = {}): Promise<World> {
  const world = new World(options);
  await world.start();
  return world;
}

// Every user and token is a run of the real admin CLI, one after another: on a busy machine a large
// cast takes longer than the hooks' usual 60 s.
const START_TIMEOUT_MS = 180_000;

/** A world for one test file: started in beforeAll, stopped and removed in afterAll. */
export function testWorld(options: WorldOptions = {}): World {
  const world = new World(options);
  beforeAll(() => world.start(), START_TIMEOUT_MS);
  afterAll(() => world.stop());
  return world;
}

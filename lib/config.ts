import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { processWide } from "./process/process-state";
import { readTlsFiles, type TlsMaterial } from "./tls-files";

/** How often an embedded replica pulls from its primary: the most a read on one instance can lag another's write. */
const DEFAULT_SYNC_INTERVAL_SECONDS = 2;
/**
 * How long one request to a libSQL server may take before the database counts as unreachable. Well
 * under the session-start hook's 2 s, so a stalled primary is a quick 503, not a hung agent.
 */
const DEFAULT_DATABASE_TIMEOUT_MS = 1_500;

/**
 * The environment, read once and checked with zod. A wrong value stops the start with one line that
 * names the variable (see formatConfigError), never a stack trace.
 */
const envSchema = z.object({
  DATABASE_URL: z
    .string()
    .trim()
    .regex(/^(file:|libsql:\/\/|https?:\/\/|wss?:\/\/|:memory:$)/, {
      message: "must be file:<path>, libsql://…, http(s)://… or ws(s)://…",
    })
    .default("file:./data/baton.db"),
  DATABASE_AUTH_TOKEN: z.string().min(1).optional(),
  DATABASE_SYNC_URL: z
    .string()
    .trim()
    .regex(/^(libsql:\/\/|https?:\/\/)/, { message: "must be the libSQL primary to replicate, libsql://… or http(s)://…" })
    .optional(),
  DATABASE_SYNC_INTERVAL: z.coerce
    .number({ message: "must be a number of seconds" })
    .min(0.1, { message: "must be at least 0.1 seconds" })
    .max(3600, { message: "must be at most 3600 seconds" })
    .default(DEFAULT_SYNC_INTERVAL_SECONDS),
  DATABASE_TIMEOUT_MS: z.coerce
    .number({ message: "must be a number of milliseconds" })
    .int()
    .min(100, { message: "must be at least 100" })
    .max(60_000, { message: "must be at most 60000" })
    .default(DEFAULT_DATABASE_TIMEOUT_MS),
  BATON_SECRET: z.string().min(32, { message: "must be at least 32 characters" }).optional(),
  BATON_BASE_URL: z.string().trim().transform(baseUrl).optional(),
  BATON_TRUST_PROXY: z.stringbool({ error: "must be true or false" }).default(false),
  BATON_MAX_BODY_BYTES: z.coerce
    .number({ message: "must be a number of bytes" })
    .int()
    .min(1024, { message: "must be at least 1024" })
    .max(64 * 1024 * 1024, { message: "must be at most 67108864 (64 MiB)" })
    .default(1024 * 1024),
  // A hook sends one or two requests per session start or prompt, a busy agent tens a minute: 600 is
  // far above both and still stops a runaway loop. 0 turns the limit off (benchmarks).
  BATON_RATE_LIMIT: z.coerce
    .number({ message: "must be a number of requests a minute" })
    .int({ message: "must be a whole number of requests a minute" })
    .min(0, { message: "must be 0 (no limit) or more" })
    .max(1_000_000, { message: "must be at most 1000000" })
    .default(600),
  // PEM files: Baton then serves HTTPS itself (scripts/https-server.mjs), with HSTS and Secure cookies.
  BATON_TLS_CERT: z.string().trim().min(1).optional(),
  BATON_TLS_KEY: z.string().trim().min(1).optional(),
  BATON_SMTP_URL: z
    .url({ protocol: /^smtps?$/, hostname: /^.+$/, message: "must be smtp://user:pass@host:port (or smtps:// for TLS from the start)" })
    .optional(),
  BATON_SMTP_FROM: z
    .string()
    .trim()
    .regex(/^[^\r\n<>]*<[^\s@<>]+@[^\s@<>]+>$|^[^\s@<>]+@[^\s@<>]+$/, { message: "must be an address, e.g. baton@example.com or Baton <baton@example.com>" })
    .optional(),
  EMBEDDINGS_URL: z.url({ message: "must be the URL of an OpenAI-compatible embeddings API, e.g. http://localhost:11434/v1" }).optional(),
  EMBEDDINGS_MODEL: z.string().min(1).max(200).optional(),
  EMBEDDINGS_API_KEY: z.string().min(1).optional(),
});

export type Config = {
  databaseUrl: string;
  databaseAuthToken: string | undefined;
  /**
   * "embedded": a file on this machine; "remote": a libSQL server shared by several instances;
   * "replica": a file on this machine kept in sync with a libSQL primary (DATABASE_SYNC_URL).
   */
  database: DatabaseShape;
  /** The primary an embedded replica syncs from, and how often (seconds). */
  sync: { url: string; intervalSeconds: number } | null;
  /** The longest one request to a libSQL server may take. */
  databaseTimeoutMs: number;
  secret: string;
  baseUrl: string | undefined;
  /**
   * Whether a reverse proxy in front of the server says who the client is (the last X-Forwarded-For
   * hop): only where every request comes through it, or anyone could name any address.
   */
  trustProxy: boolean;
  maxBodyBytes: number;
  /** Requests a minute per API token, counted across every instance on the database; 0: no limit. */
  rateLimit: number;
  /** Where invitation links are mailed from and through; absent: owners copy the link themselves. */
  smtp: { url: string; from: string } | null;
  /** An OpenAI-compatible /v1/embeddings endpoint; absent: full-text search alone. */
  embeddings: { url: string; model: string; apiKey: string | undefined } | null;
  /** The certificate (chain) and key Baton serves HTTPS with, checked readable and matching; null: plain HTTP. */
  tls: TlsMaterial | null;
};

export type DatabaseShape = "embedded" | "remote" | "replica";

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable} ${message}`);
    this.name = "ConfigError";
  }
}

/** The one line printed when the start is refused. */
export function formatConfigError(error: ConfigError): string {
  return `baton: invalid configuration: ${error.message}`;
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(String(issue.path[0] ?? "environment"), issue.message);
  }
  const e = parsed.data;
  if (Boolean(e.BATON_TLS_CERT) !== Boolean(e.BATON_TLS_KEY)) {
    const [missing, given] = e.BATON_TLS_CERT ? ["BATON_TLS_KEY", "BATON_TLS_CERT"] : ["BATON_TLS_CERT", "BATON_TLS_KEY"];
    throw new ConfigError(missing, `is required with ${given} (HTTPS needs both the certificate and its private key, as PEM files)`);
  }
  if (e.EMBEDDINGS_URL && !e.EMBEDDINGS_MODEL) throw new ConfigError("EMBEDDINGS_MODEL", "is required with EMBEDDINGS_URL (the model name to ask for)");
  if (e.BATON_SMTP_URL && !e.BATON_SMTP_FROM) throw new ConfigError("BATON_SMTP_FROM", "is required with BATON_SMTP_URL (the address invitations are sent from)");
  const local = e.DATABASE_URL.startsWith("file:") || e.DATABASE_URL === ":memory:";
  if (e.DATABASE_SYNC_URL && (!local || e.DATABASE_URL.includes(":memory:"))) {
    throw new ConfigError("DATABASE_SYNC_URL", "needs DATABASE_URL to be the replica's local file (file:<path>)");
  }
  const database: DatabaseShape = !local ? "remote" : e.DATABASE_SYNC_URL ? "replica" : "embedded";
  return {
    databaseUrl: e.DATABASE_URL,
    databaseAuthToken: e.DATABASE_AUTH_TOKEN,
    database,
    sync: e.DATABASE_SYNC_URL ? { url: e.DATABASE_SYNC_URL, intervalSeconds: e.DATABASE_SYNC_INTERVAL } : null,
    databaseTimeoutMs: e.DATABASE_TIMEOUT_MS,
    secret: e.BATON_SECRET ?? embeddedSecret(e.DATABASE_URL, database),
    baseUrl: e.BATON_BASE_URL,
    trustProxy: e.BATON_TRUST_PROXY,
    maxBodyBytes: e.BATON_MAX_BODY_BYTES,
    rateLimit: e.BATON_RATE_LIMIT,
    smtp: e.BATON_SMTP_URL ? { url: e.BATON_SMTP_URL, from: e.BATON_SMTP_FROM! } : null,
    embeddings: e.EMBEDDINGS_URL ? { url: embeddingsEndpoint(e.EMBEDDINGS_URL), model: e.EMBEDDINGS_MODEL!, apiKey: e.EMBEDDINGS_API_KEY } : null,
    tls: e.BATON_TLS_CERT && e.BATON_TLS_KEY ? tlsFiles(e.BATON_TLS_CERT, e.BATON_TLS_KEY) : null,
  };
}

/**
 * BATON_BASE_URL as every link and check uses it: an http(s) origin, normalised as URL writes it (scheme
 * and host lower-case, the default port dropped, no trailing slash). A path prefix (https://host/baton)
 * is refused: the dashboard's redirects and the session cookie's path assume Baton serves from the root.
 */
function baseUrl(value: string, ctx: z.RefinementCtx): string {
  const refuse = (message: string) => {
    ctx.addIssue({ code: "custom", message });
    return z.NEVER;
  };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return refuse("must be an absolute http:// or https:// URL, such as https://baton.example.com");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return refuse("must start with http:// or https://, such as https://baton.example.com or http://10.0.0.5:3000");
  }
  if (url.username || url.password) return refuse("must not carry a user name or password");
  if (url.pathname.replace(/\/+$/, "") || url.search || url.hash) {
    return refuse(`must be the server's origin only, such as ${url.origin}: Baton serves from the root of its host, not under a path, query or fragment`);
  }
  return url.origin;
}

/** The two files read and checked, or the ConfigError that names the variable whose file is wrong. */
function tlsFiles(certFile: string, keyFile: string): TlsMaterial {
  const read = readTlsFiles({ certFile, keyFile });
  if ("problem" in read) throw new ConfigError(read.problem.variable, read.problem.message);
  return read.material;
}

/** Accepts the API's base (…/v1) or the endpoint itself (…/v1/embeddings). */
function embeddingsEndpoint(url: string): string {
  const trimmed = url.replace(/\/+$/, "");
  return trimmed.endsWith("/embeddings") ? trimmed : `${trimmed}/embeddings`;
}

/** The file an embedded DATABASE_URL (file:<path>) names, as an absolute path. */
export function embeddedFile(databaseUrl: string): string {
  return path.resolve(databaseUrl.replace(/^file:(\/\/)?/, "").split("?")[0]!);
}

/**
 * An embedded install needs no setup step: the session-signing secret is generated on first start and
 * kept beside the database file (mode 0600). Instances sharing a remote database must share a secret,
 * so there it has to be given.
 */
function embeddedSecret(databaseUrl: string, database: DatabaseShape): string {
  if (database !== "embedded") {
    const what = database === "remote" ? "a remote DATABASE_URL" : "DATABASE_SYNC_URL";
    throw new ConfigError("BATON_SECRET", `is required with ${what} (at least 32 characters, the same on every instance)`);
  }
  if (databaseUrl === ":memory:" || databaseUrl.includes(":memory:")) return randomBytes(32).toString("hex");
  const secretFile = `${embeddedFile(databaseUrl)}.secret`;
  mkdirSync(path.dirname(secretFile), { recursive: true });
  if (!existsSync(secretFile)) {
    try {
      // "wx": when two instances start at once, one writes and the other reads what it wrote.
      writeFileSync(secretFile, randomBytes(32).toString("hex"), { flag: "wx", mode: 0o600 });
      chmodSync(secretFile, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  for (let attempt = 0; ; attempt++) {
    const secret = readFileSync(secretFile, "utf8").trim();
    if (secret.length >= 32 || attempt > 50) return secret;
    // The other instance created the file but has not written it yet.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
  }
}

/** The configuration of this process, parsed on first use. */
export function getConfig(): Config {
  return processWide("configuration", () => parseConfig(process.env));
}

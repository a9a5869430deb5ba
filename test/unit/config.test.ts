import { describe, expect, it } from "vitest";
import { ConfigError, formatConfigError, parseConfig } from "@/lib/config";
import { tempDir } from "../support/server";

describe("parseConfig", () => {
  const tmp = tempDir();
  const file = `file:${tmp.dir}/x.db`;

  it.each([
    { env: { DATABASE_URL: "postgres://db/x" }, variable: "DATABASE_URL" },
    { env: { DATABASE_URL: "libsql://db.example.com" }, variable: "BATON_SECRET" },
    { env: { DATABASE_URL: file, BATON_SECRET: "short" }, variable: "BATON_SECRET" },
    { env: { DATABASE_URL: file, BATON_BASE_URL: "not a url" }, variable: "BATON_BASE_URL" },
    { env: { DATABASE_URL: file, BATON_BASE_URL: "baton.example.com:8443" }, variable: "BATON_BASE_URL" },
    { env: { DATABASE_URL: file, BATON_BASE_URL: "localhost:3000" }, variable: "BATON_BASE_URL" },
    { env: { DATABASE_URL: file, BATON_BASE_URL: "ftp://baton.example.com" }, variable: "BATON_BASE_URL" },
    { env: { DATABASE_URL: file, BATON_BASE_URL: "mailto:baton@example.com" }, variable: "BATON_BASE_URL" },
    { env: { DATABASE_URL: file, BATON_BASE_URL: "https://example.com/baton" }, variable: "BATON_BASE_URL" },
    { env: { DATABASE_URL: file, BATON_BASE_URL: "https://example.com/?x=1" }, variable: "BATON_BASE_URL" },
    { env: { DATABASE_URL: file, BATON_BASE_URL: "https://user:pw@example.com" }, variable: "BATON_BASE_URL" },
    { env: { DATABASE_URL: file, BATON_MAX_BODY_BYTES: "lots" }, variable: "BATON_MAX_BODY_BYTES" },
    { env: { DATABASE_URL: file, BATON_MAX_BODY_BYTES: "10" }, variable: "BATON_MAX_BODY_BYTES" },
    { env: { DATABASE_URL: file, BATON_RATE_LIMIT: "-1" }, variable: "BATON_RATE_LIMIT" },
    { env: { DATABASE_URL: file, BATON_RATE_LIMIT: "many" }, variable: "BATON_RATE_LIMIT" },
    { env: { DATABASE_URL: file, EMBEDDINGS_URL: "http://localhost:11434/v1" }, variable: "EMBEDDINGS_MODEL" },
    { env: { DATABASE_URL: file, EMBEDDINGS_URL: "not a url", EMBEDDINGS_MODEL: "m" }, variable: "EMBEDDINGS_URL" },
    { env: { DATABASE_URL: "http://db:8080", DATABASE_SYNC_URL: "http://db:8080", BATON_SECRET: "x".repeat(32) }, variable: "DATABASE_SYNC_URL" },
    { env: { DATABASE_URL: file, DATABASE_SYNC_URL: "ftp://db" }, variable: "DATABASE_SYNC_URL" },
    { env: { DATABASE_URL: file, DATABASE_SYNC_URL: "http://db:8080" }, variable: "BATON_SECRET" },
    { env: { DATABASE_URL: file, DATABASE_SYNC_INTERVAL: "0" }, variable: "DATABASE_SYNC_INTERVAL" },
    { env: { DATABASE_URL: file, DATABASE_TIMEOUT_MS: "soon" }, variable: "DATABASE_TIMEOUT_MS" },
    { env: { DATABASE_URL: file, BATON_TRUST_PROXY: "maybe" }, variable: "BATON_TRUST_PROXY" },
    { env: { DATABASE_URL: file, BATON_TLS_CERT: "/etc/baton/cert.pem" }, variable: "BATON_TLS_KEY" },
    { env: { DATABASE_URL: file, BATON_TLS_KEY: "/etc/baton/key.pem" }, variable: "BATON_TLS_CERT" },
    { env: { DATABASE_URL: file, BATON_TLS_CERT: `${tmp.dir}/none.pem`, BATON_TLS_KEY: `${tmp.dir}/none.key` }, variable: "BATON_TLS_CERT" },
    { env: { DATABASE_URL: file, BATON_SMTP_URL: "http://mail.example.com", BATON_SMTP_FROM: "b@example.com" }, variable: "BATON_SMTP_URL" },
    { env: { DATABASE_URL: file, BATON_SMTP_URL: "smtp:nohost", BATON_SMTP_FROM: "b@example.com" }, variable: "BATON_SMTP_URL" },
    { env: { DATABASE_URL: file, BATON_SMTP_URL: "smtp://mail.example.com:25" }, variable: "BATON_SMTP_FROM" },
    { env: { DATABASE_URL: file, BATON_SMTP_URL: "smtp://mail.example.com:25", BATON_SMTP_FROM: "baton" }, variable: "BATON_SMTP_FROM" },
  ])("refuses $env with one line naming $variable", ({ env, variable }) => {
    let error: unknown;
    try {
      parseConfig(env);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const line = formatConfigError(error as ConfigError);
    expect(line).toContain(variable);
    expect(line.split("\n")).toHaveLength(1);
  });

  it("serves plain HTTP without BATON_TLS_CERT and BATON_TLS_KEY", () => {
    expect(parseConfig({ DATABASE_URL: file }).tls).toBeNull();
  });

  it("defaults to the embedded database and a generated secret kept beside it", () => {
    const a = parseConfig({ DATABASE_URL: file });
    expect(a.database).toBe("embedded");
    expect(a.secret.length).toBeGreaterThanOrEqual(32);
    expect(parseConfig({ DATABASE_URL: file }).secret).toBe(a.secret);
    expect(a.maxBodyBytes).toBe(1024 * 1024);
    expect(a.rateLimit).toBe(600);
    expect(parseConfig({ DATABASE_URL: file, BATON_RATE_LIMIT: "0" }).rateLimit).toBe(0);
    expect(a.trustProxy).toBe(false);
    expect(parseConfig({ DATABASE_URL: file, BATON_TRUST_PROXY: "true" }).trustProxy).toBe(true);
  });

  it("selects a remote libSQL server with its auth token", () => {
    const c = parseConfig({ DATABASE_URL: "libsql://db.example.com", DATABASE_AUTH_TOKEN: "t", BATON_SECRET: "x".repeat(32) });
    expect(c).toMatchObject({ database: "remote", databaseAuthToken: "t", databaseUrl: "libsql://db.example.com" });
  });

  it("selects an embedded replica of a libSQL primary, with its sync interval", () => {
    const c = parseConfig({ DATABASE_URL: file, DATABASE_SYNC_URL: "libsql://db.example.com", DATABASE_SYNC_INTERVAL: "0.5", BATON_SECRET: "x".repeat(32) });
    expect(c).toMatchObject({ database: "replica", sync: { url: "libsql://db.example.com", intervalSeconds: 0.5 }, databaseTimeoutMs: 1500 });
    expect(parseConfig({ DATABASE_URL: file }).sync).toBeNull();
  });

  it("takes the embeddings API's base URL or its endpoint", () => {
    const base = { DATABASE_URL: file, EMBEDDINGS_MODEL: "nomic-embed-text" };
    expect(parseConfig({ ...base, EMBEDDINGS_URL: "http://localhost:11434/v1/" }).embeddings?.url).toBe("http://localhost:11434/v1/embeddings");
    expect(parseConfig({ ...base, EMBEDDINGS_URL: "https://api.example.com/v1/embeddings" }).embeddings?.url).toBe("https://api.example.com/v1/embeddings");
    expect(parseConfig({ DATABASE_URL: file }).embeddings).toBeNull();
  });

  it("mails invitations only with an SMTP server and a sender", () => {
    expect(parseConfig({ DATABASE_URL: file }).smtp).toBeNull();
    const smtp = { BATON_SMTP_URL: "smtp://u:p@mail.example.com:587", BATON_SMTP_FROM: "Baton <baton@example.com>" };
    expect(parseConfig({ DATABASE_URL: file, ...smtp }).smtp).toEqual({ url: smtp.BATON_SMTP_URL, from: smtp.BATON_SMTP_FROM });
  });

  it.each([
    ["HTTPS://Localhost:3446", "https://localhost:3446"],
    ["https://Baton.Example.com:443/", "https://baton.example.com"],
    ["http://10.0.0.5:3000//", "http://10.0.0.5:3000"],
    [" https://baton.example.com ", "https://baton.example.com"],
  ])("BATON_BASE_URL %s is kept as %s", (given, kept) => {
    expect(parseConfig({ DATABASE_URL: file, BATON_BASE_URL: given }).baseUrl).toBe(kept);
  });

  it("treats empty variables as unset", () => {
    expect(parseConfig({ DATABASE_URL: file, BATON_BASE_URL: "" }).baseUrl).toBeUndefined();
  });
});

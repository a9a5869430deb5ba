import { sideClient } from "../support/side-db";
import { networkInterfaces } from "node:os";
import { afterAll, describe, expect, it } from "vitest";
import { send, submitPageForm } from "../support/page-form";
import { startServer, tempDir, type RunningServer } from "../support/server";

// First-run setup makes whoever does it the admin, and `npm start` listens on every address
// (finding 9 of issue 21). It is done from the server's own machine (a loopback socket, a loopback
// Host, no proxy in between), or from anywhere with the one-time code the server printed at start.

const tmp = tempDir("baton-setup-");
const servers: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  tmp.remove();
});

async function freshServer(name: string, listen?: string): Promise<RunningServer> {
  const server = await startServer({ databaseUrl: `file:${tmp.dir}/${name}.db`, listen });
  servers.push(server);
  return server;
}

async function users(server: RunningServer): Promise<string[]> {
  const db = sideClient(server.databaseUrl);
  try {
    return (await db.execute("SELECT email FROM users")).rows.map((r) => String(r.email));
  } finally {
    db.close();
  }
}

const admin = (email: string, code?: string) => ({
  name: "Ana",
  email,
  password: "long enough pass",
  confirm: "long enough pass",
  ...(code === undefined ? {} : { code }),
});

const SETUP_CODE = /setup code ([A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4})/;

describe("first-run setup from another machine", () => {
  let server: RunningServer;
  let code: string;

  it("the server prints a one-time setup code at start while it has no user", async () => {
    server = await freshServer("remote");
    code = SETUP_CODE.exec(server.output())?.[1] ?? "";
    expect(code, server.output()).not.toBe("");
  });

  it("the setup page asks for the code where the request is not from this machine, not where it is", async () => {
    const remote = await send(server.port, "/setup", { headers: { host: "evil.example" } });
    expect(remote.status).toBe(200);
    expect(remote.body).toContain('name="code"');
    const local = await send(server.port, "/setup", { headers: { host: `127.0.0.1:${server.port}` } });
    expect(local.body).toContain("Create the admin account");
    expect(local.body).not.toContain('name="code"');
  });

  it.each<{ what: string; headers: () => Record<string, string>; code?: string }>([
    { what: "a DNS-rebinding Host", headers: () => ({ host: "evil.example" }) },
    { what: "a rebinding Host with a port", headers: () => ({ host: `evil.example:${server.port}` }) },
    { what: "a Host that starts with localhost", headers: () => ({ host: "localhost.evil.example" }) },
    { what: "a LAN address", headers: () => ({ host: `192.168.1.20:${server.port}` }) },
    { what: "X-Forwarded-For (a proxy on this machine)", headers: () => ({ host: `127.0.0.1:${server.port}`, "x-forwarded-for": "203.0.113.7" }) },
    { what: "Forwarded", headers: () => ({ host: `127.0.0.1:${server.port}`, forwarded: "for=203.0.113.7" }) },
    { what: "X-Forwarded-Host", headers: () => ({ host: `127.0.0.1:${server.port}`, "x-forwarded-host": "localhost" }) },
    { what: "X-Real-IP", headers: () => ({ host: `127.0.0.1:${server.port}`, "x-real-ip": "203.0.113.7" }) },
    { what: "a wrong code", headers: () => ({ host: "evil.example" }), code: "AAAA-BBBB-CCCC" },
    { what: "an empty code", headers: () => ({ host: "evil.example" }), code: "" },
  ])("refused without the code: $what", async ({ headers, code: sent }) => {
    const { reply } = await submitPageForm(server.port, "/setup", admin("mallory@example.com", sent), headers());
    expect(reply.status).toBe(200);
    expect(reply.body).toContain("needs the setup code");
    expect(await users(server)).toEqual([]);
  });

  it("works from anywhere with the printed code (typed in lower case, without dashes)", async () => {
    const { reply } = await submitPageForm(server.port, "/setup", admin("ana@example.com", code.replace(/-/g, "").toLowerCase()), {
      host: "baton.lan:3000",
      "x-forwarded-for": "203.0.113.7",
    });
    expect(reply.status, reply.body.slice(0, 300)).toBe(303);
    expect(await users(server)).toEqual(["ana@example.com"]);
  });
});

/** This machine's address on a network, if it has one: a connection to it comes from it, not from loopback. */
const networkAddress = Object.values(networkInterfaces())
  .flat()
  .find((i) => i?.family === "IPv4" && !i.internal)?.address;

describe("first-run setup on the server's own machine", () => {
  it.skipIf(!networkAddress)("is refused without the code on a socket that is not loopback, even with a loopback Host", async () => {
    const server = await freshServer("network", "0.0.0.0");
    const { reply } = await submitPageForm(server.port, "/setup", admin("mallory@example.com"), { host: `127.0.0.1:${server.port}` }, networkAddress);
    expect(reply.body).toContain("needs the setup code");
    expect(await users(server)).toEqual([]);
  });


  it.each(["127.0.0.1", "localhost"])("works as before at %s, without a code", async (name) => {
    const server = await freshServer(`local-${name}`);
    const { reply } = await submitPageForm(server.port, "/setup", admin("ana@example.com"), { host: `${name}:${server.port}` });
    expect(reply.status, reply.body.slice(0, 300)).toBe(303);
    expect(await users(server)).toEqual(["ana@example.com"]);
  });
});

import { describe, expect, it } from "vitest";
import { toolText } from "../support/mcp";
import { mcpTestWorld } from "../support/mcp-world";

// Text that reaches the server through REST or MCP gets the secret withholding the CLI applies at
// home (issue 21): a credential written in prose, as a person or an agent writes it, is stored
// withheld. Each case writes through the real server, then reads the stored row back.
const { world, call } = mcpTestWorld();

/** The example: an AWS secret access key in prose, which only the generic rule catches. */
const AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
const PASSWORD = "Plum-Velvet-93!";
const prose = (where: string) => `Deployed ${where} with secret ${AWS_SECRET}; the staging password is ${PASSWORD} for now.`;

/** The stored text of what a case wrote, found by the case's own words. */
const stored = async (table: string, column: string, where: string) => {
  const rows = await world.sql(`SELECT ${column} AS text FROM ${table} WHERE ${column} LIKE ?`, [`%${where}%`]);
  expect(rows, `${table} holds no row with ${where}`).toHaveLength(1);
  return String(rows[0]!.text);
};

function expectWithheld(text: string) {
  expect(text).not.toContain(AWS_SECRET);
  expect(text).not.toContain(PASSWORD);
  expect(text).toContain("with secret [withheld: secret]");
  expect(text).toContain("password is [withheld: password]");
}

describe("over REST, a secret in prose is stored withheld", () => {
  it.each([
    ["a learning posted", "POST", "/api/learnings", { kind: "insight", content: prose("rest-learning"), project: "alpha" }, 201, "learnings", "content", "rest-learning"],
    ["a proposal", "POST", "/api/proposals", { kind: "insight", content: prose("rest-proposal"), project: "alpha" }, 201, "proposals", "content", "rest-proposal"],
    ["a handoff", "POST", "/api/projects/alpha/handoffs", { markdown: prose("rest-handoff"), sessionId: "secret-1" }, 201, "handoffs", "markdown", "rest-handoff"],
    ["task memory", "PUT", "/api/projects/alpha/tasks/task-501/memory", { markdown: prose("rest-memory") }, 200, "task_memories", "markdown", "rest-memory"],
    ["a session document", "POST", "/api/projects/alpha/sessions", { markdown: `---\nid: s-secret\n---\n${prose("rest-session")}` }, 201, "session_docs", "markdown", "rest-session"],
  ] as const)("%s", async (_name, method, path, body, status, table, column, where) => {
    const res = await world.as("ana")(method, path, body);
    expect(res.status, res.text).toBe(status);
    expect(res.text).not.toContain(AWS_SECRET);
    expectWithheld(await stored(table, column, where));
  });

  it("a learning edited, and a proposal accepted with new words", async () => {
    const created = await world.as("ana")("POST", "/api/learnings", { kind: "insight", content: "Staging deploys go through the ops box", project: "alpha" });
    const edited = await world.as("ana")("PATCH", `/api/learnings/${created.json.learning.id}`, { content: prose("rest-edit") });
    expect(edited.status, edited.text).toBe(200);
    expectWithheld(edited.json.learning.content);
    expectWithheld(await stored("learnings", "content", "rest-edit"));

    const proposed = await world.as("ana")("POST", "/api/proposals", { kind: "pattern", content: "Rotate the deploy keys every quarter", project: "alpha" });
    const accepted = await world.as("ana")("POST", `/api/proposals/${proposed.json.proposal.id}/accept`, { content: prose("rest-accept") });
    expect(accepted.status, accepted.text).toBe(200);
    expectWithheld(await stored("learnings", "content", "rest-accept"));
  });

  it("text the CLI already redacted, and ordinary text, are stored as they came", async () => {
    const markdown = "Did: rotated the key (DB_PASSWORD=[withheld: secret]); commit 3f2a9c1d4e5b6a7f8091a2b3c4d5e6f708192a3b, lockfile sha512-Y3dgX/6lE2QhQb+Gxy0WZxfg9MEm/JBjamZpS2IklP7xIQoKN4hzAm7KcMVGtaVDt3neE9OKBC7vAfonA/Lr1A==";
    const res = await world.as("ana")("POST", "/api/projects/alpha/handoffs", { markdown, sessionId: "secret-2" });
    expect(res.status, res.text).toBe(201);
    expect(res.json.handoff.markdown).toBe(markdown);
  });
});

describe("over MCP, a secret in prose is stored withheld", () => {
  it.each([
    ["propose_learning", { kind: "insight", content: prose("mcp-proposal"), project: "alpha" }, "proposals", "content", "mcp-proposal"],
    ["write_handoff", { project: "alpha", markdown: prose("mcp-handoff"), sessionId: "secret-3" }, "handoffs", "markdown", "mcp-handoff"],
    ["set_task_memory", { project: "alpha", taskId: "task-502", markdown: prose("mcp-memory") }, "task_memories", "markdown", "mcp-memory"],
  ] as const)("%s", async (tool, args, table, column, where) => {
    const res = await call("ana", tool, args);
    expect(res.isError, toolText(res)).toBeFalsy();
    expect(JSON.stringify(res)).not.toContain(AWS_SECRET);
    expectWithheld(await stored(table, column, where));
  });
});

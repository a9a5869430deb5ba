import type { Client } from "@libsql/client";
import { afterAll, describe, expect, it } from "vitest";
import { migratedBefore } from "../support/migration-step";
import { tempDir } from "../support/server";

/**
 * Learnings made before provenance was kept (issue 27) get it from what the database already knew: the
 * proposal each was accepted from (its agent, model and decision time), who accepted it and whether they
 * edited it (the audit trail), a later edit of its text, and a seed's id for an imported one.
 */

const tmp = tempDir("baton-provenance-");
let db: Client | undefined;

afterAll(() => {
  db?.close();
  tmp.remove();
});

describe("the learning provenance migration", () => {
  it("fills origin, proposal, agent, model, accepted and edited from proposals and the audit trail", async () => {
    const step = await migratedBefore(tmp.dir, "_learning_provenance");
    db = step.db;
    await db.execute("INSERT INTO users (id, name, email, created_at, updated_at) VALUES ('u1', 'bo', 'bo@example.com', 0, 0), ('u2', 'ana', 'ana@example.com', 0, 0)");
    await db.execute("INSERT INTO projects (id, slug, name, created_at, updated_at) VALUES ('p1', 'web', 'web', 0, 0)");
    await db.execute(
      `INSERT INTO learnings (id, user_id, project_id, kind, content, source, external_id, created_at, updated_at) VALUES
        ('from-proposal', 'u1', 'p1', 'pattern', 'edited text', 'sess-9', NULL, 1000, 1000),
        ('imported', 'u1', NULL, 'insight', 'from a seed', 'import', 'seed-1', 1000, 1000),
        ('typed', 'u2', 'p1', 'pattern', 'typed text', 'manual', NULL, 1000, 1000)`,
    );
    await db.execute(
      `INSERT INTO proposals (id, user_id, project_id, kind, content, source, status, learning_id, agent, model, decided_at, created_at, updated_at) VALUES
        ('prop-1', 'u1', 'p1', 'pattern', 'first text', 'sess-9', 'accepted', 'from-proposal', 'codex', 'gpt-5.1', 5000, 900, 5000),
        ('prop-2', 'u1', 'p1', 'pattern', 'rejected one', 'sess-9', 'rejected', NULL, NULL, NULL, 5000, 900, 5000)`,
    );
    await db.execute(
      `INSERT INTO audit_log (project_id, owner_user_id, actor_user_id, actor_name, actor_email, action, subject_kind, subject_id, subject_label, detail, created_at) VALUES
        ('p1', 'u1', 'u2', 'ana', 'ana@example.com', 'accept', 'proposal', 'prop-1', 'edited text', 'edited before accepting; proposed by Codex CLI', 5000),
        ('p1', 'u2', 'u1', 'bo', 'bo@example.com', 'edit', 'learning', 'typed', 'typed text', 'changed tags', 6000),
        ('p1', 'u2', 'u1', 'bo', 'bo@example.com', 'edit', 'learning', 'typed', 'typed text', 'changed content', 7000)`,
    );
    await step.migrateRest();
    const rows = await db.execute(
      "SELECT id, origin, proposal_id, agent, model, accepted_by, accepted_at, edited_by, edited_at FROM learnings ORDER BY id",
    );
    expect(rows.rows.map((r) => ({ ...r }))).toEqual([
      { id: "from-proposal", origin: "proposal", proposal_id: "prop-1", agent: "codex", model: "gpt-5.1", accepted_by: "u2", accepted_at: 5000, edited_by: "u2", edited_at: 5000 },
      { id: "imported", origin: "import", proposal_id: null, agent: null, model: null, accepted_by: null, accepted_at: null, edited_by: null, edited_at: null },
      { id: "typed", origin: "typed", proposal_id: null, agent: null, model: null, accepted_by: null, accepted_at: null, edited_by: "u1", edited_at: 7000 },
    ]);
    // Deleting the account that accepted keeps the learning and forgets only who it was.
    await db.execute("PRAGMA foreign_keys = ON");
    await db.execute("DELETE FROM users WHERE id = 'u2'");
    const left = await db.execute("SELECT accepted_by, edited_by FROM learnings WHERE id = 'from-proposal'");
    expect({ ...left.rows[0] }).toEqual({ accepted_by: null, edited_by: null });
  });
});

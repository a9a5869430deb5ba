-- A session document that names no priority is `medium` (2, lib/rules.ts DEFAULT_SESSION_PRIORITY); the
-- column said 100. libSQL's ALTER COLUMN rewrites only the column's definition: no table rebuild, so the
-- context_version triggers and the queue index on session_docs stay as they are. drizzle-kit also
-- generated a drop and re-create of every index in the database around it, which libSQL does not need.
ALTER TABLE `session_docs` ALTER COLUMN "priority" TO "priority" integer NOT NULL DEFAULT 2;

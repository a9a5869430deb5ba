-- A session document's id is unique within its project, no longer across all projects: the primary key
-- becomes (project_id, id). SQLite changes a primary key only by rebuilding the table; every row is copied.
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_session_docs` (
	`id` text NOT NULL,
	`project_id` text NOT NULL,
	`markdown` text NOT NULL,
	`priority` integer DEFAULT 2 NOT NULL,
	`tags` text NOT NULL,
	`branch` text,
	`specs` text NOT NULL,
	`files` text NOT NULL,
	`working_directory` text,
	`status` text DEFAULT 'todo' NOT NULL,
	`created_by` text,
	`claimed_by` text,
	`claimed_at` integer,
	`completed_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `id`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`claimed_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
INSERT INTO `__new_session_docs`("id", "project_id", "markdown", "priority", "tags", "branch", "specs", "files", "working_directory", "status", "created_by", "claimed_by", "claimed_at", "completed_at", "created_at", "updated_at") SELECT "id", "project_id", "markdown", "priority", "tags", "branch", "specs", "files", "working_directory", "status", "created_by", "claimed_by", "claimed_at", "completed_at", "created_at", "updated_at" FROM `session_docs`;--> statement-breakpoint
DROP TABLE `session_docs`;--> statement-breakpoint
ALTER TABLE `__new_session_docs` RENAME TO `session_docs`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `session_docs_queue_idx` ON `session_docs` (`project_id`,`status`,`priority`,`created_at`);;--> statement-breakpoint
-- Dropping the old table dropped its context_version triggers (drizzle/0003_context_version.sql): the
-- same three again, so a queued, claimed or finished document still changes the context's ETag.
CREATE TRIGGER `session_docs_context_version_insert` AFTER INSERT ON `session_docs` BEGIN
  UPDATE `app_meta` SET `value` = CAST(`value` AS INTEGER) + 1 WHERE `key` = 'context_version';
END;
--> statement-breakpoint
CREATE TRIGGER `session_docs_context_version_delete` AFTER DELETE ON `session_docs` BEGIN
  UPDATE `app_meta` SET `value` = CAST(`value` AS INTEGER) + 1 WHERE `key` = 'context_version';
END;
--> statement-breakpoint
CREATE TRIGGER `session_docs_context_version_update` AFTER UPDATE OF `status`, `project_id` ON `session_docs` BEGIN
  UPDATE `app_meta` SET `value` = CAST(`value` AS INTEGER) + 1 WHERE `key` = 'context_version';
END;

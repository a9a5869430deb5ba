ALTER TABLE `learnings` ADD `kept_at` integer;--> statement-breakpoint
CREATE INDEX `learnings_stale_idx` ON `learnings` (`project_id`,coalesce(`last_injected_at`, `created_at`)) WHERE "learnings"."superseded_at" IS NULL;

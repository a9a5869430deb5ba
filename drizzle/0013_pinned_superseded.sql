ALTER TABLE `learnings` ADD `pinned` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `learnings` ADD `superseded_at` integer;--> statement-breakpoint
ALTER TABLE `learnings` ADD `superseded_by` text REFERENCES learnings(id) ON DELETE SET NULL;--> statement-breakpoint
CREATE INDEX `learnings_pinned_idx` ON `learnings` (`project_id`,`user_id`) WHERE "learnings"."pinned" = 1;--> statement-breakpoint
CREATE INDEX `learnings_superseded_by_idx` ON `learnings` (`superseded_by`) WHERE "learnings"."superseded_by" IS NOT NULL;--> statement-breakpoint
-- Pinning and superseding change what a context holds: the context version (0003) moves with them too.
-- (The FTS and embedding triggers read content and tags alone, so they stay as they are.)
DROP TRIGGER IF EXISTS `learnings_context_version_update`;--> statement-breakpoint
CREATE TRIGGER `learnings_context_version_update` AFTER UPDATE OF `kind`, `content`, `confirmed`, `tags`, `project_id`, `user_id`, `pinned`, `superseded_at`, `superseded_by` ON `learnings` BEGIN
  UPDATE `app_meta` SET `value` = CAST(`value` AS INTEGER) + 1 WHERE `key` = 'context_version';
END;

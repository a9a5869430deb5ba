CREATE TABLE `learning_usage` (
	`learning_id` text NOT NULL,
	`user_id` text NOT NULL,
	`session_id` text NOT NULL,
	`touched` integer NOT NULL,
	`how` text,
	`reported_at` integer NOT NULL,
	PRIMARY KEY(`learning_id`, `user_id`, `session_id`),
	FOREIGN KEY (`learning_id`) REFERENCES `learnings`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `learnings` ADD `files` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `learnings` ADD `flagged_at` integer;--> statement-breakpoint
ALTER TABLE `learnings` ADD `flag_reason` text;--> statement-breakpoint
ALTER TABLE `learnings` ADD `flag_file` text;--> statement-breakpoint
ALTER TABLE `learnings` ADD `flag_session_id` text;--> statement-breakpoint
CREATE INDEX `learnings_flagged_idx` ON `learnings` (`project_id`,`flagged_at`) WHERE "learnings"."flagged_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `learnings_named_files_idx` ON `learnings` (`project_id`,`created_at`) WHERE "learnings"."files" <> '[]';
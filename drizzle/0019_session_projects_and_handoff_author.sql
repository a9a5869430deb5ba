CREATE TABLE `session_projects` (
	`user_id` text NOT NULL,
	`session_id` text NOT NULL,
	`project_id` text,
	`served_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `session_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `session_projects_at_idx` ON `session_projects` (`served_at`);--> statement-breakpoint
ALTER TABLE `handoffs` ADD `signed_as` text;--> statement-breakpoint
-- Handoffs written before the author was the token's user carry whatever name the client sent: that
-- name moves to signed_as (when it differs) and the author becomes the writing user's name.
UPDATE `handoffs` SET
	`signed_as` = CASE WHEN `author` <> (SELECT `name` FROM `users` WHERE `users`.`id` = `handoffs`.`user_id`) THEN `author` END,
	`author` = (SELECT `name` FROM `users` WHERE `users`.`id` = `handoffs`.`user_id`)
WHERE `user_id` IS NOT NULL AND EXISTS (SELECT 1 FROM `users` WHERE `users`.`id` = `handoffs`.`user_id`);

CREATE TABLE `session_served` (
	`user_id` text NOT NULL,
	`session_id` text NOT NULL,
	`learning_id` text NOT NULL,
	`served_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `session_id`, `learning_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `session_served_at_idx` ON `session_served` (`served_at`);
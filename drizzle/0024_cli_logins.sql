CREATE TABLE `cli_logins` (
	`id` text PRIMARY KEY NOT NULL,
	`device_code_hash` text NOT NULL,
	`user_code` text NOT NULL,
	`machine` text NOT NULL,
	`address` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`user_id` text,
	`token_name` text,
	`token_scope` text,
	`token_projects` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`decided_at` integer,
	`last_polled_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `cli_logins_device_code_hash_unique` ON `cli_logins` (`device_code_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `cli_logins_user_code_unique` ON `cli_logins` (`user_code`);--> statement-breakpoint
CREATE INDEX `cli_logins_expires_idx` ON `cli_logins` (`expires_at`);
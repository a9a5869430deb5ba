CREATE TABLE `kept_pairs` (
	`a_id` text NOT NULL,
	`b_id` text NOT NULL,
	`kept_at` integer NOT NULL,
	PRIMARY KEY(`a_id`, `b_id`),
	FOREIGN KEY (`a_id`) REFERENCES `learnings`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`b_id`) REFERENCES `learnings`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `kept_pairs_b_idx` ON `kept_pairs` (`b_id`);
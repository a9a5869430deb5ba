PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_session_served` (
	`user_id` text NOT NULL,
	`session_id` text NOT NULL,
	`learning_ids` text NOT NULL,
	`served_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- One row per learning before; now one per time a session was given learnings, their ids a JSON array.
INSERT INTO `__new_session_served`("user_id", "session_id", "learning_ids", "served_at")
  SELECT "user_id", "session_id", json_group_array("learning_id"), "served_at" FROM `session_served` GROUP BY "user_id", "session_id", "served_at";--> statement-breakpoint
DROP TABLE `session_served`;--> statement-breakpoint
ALTER TABLE `__new_session_served` RENAME TO `session_served`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `session_served_session_idx` ON `session_served` (`user_id`,`session_id`);--> statement-breakpoint
CREATE INDEX `session_served_at_idx` ON `session_served` (`served_at`);
CREATE TABLE `context_marks` (
	`user_id` text PRIMARY KEY NOT NULL,
	`last_session_id` text,
	`last_session_at` integer,
	`previous_session_at` integer,
	`setup_note_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);

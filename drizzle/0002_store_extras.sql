ALTER TABLE `learnings` ADD `confirmed_at` integer;--> statement-breakpoint
ALTER TABLE `learnings` ADD `extra` text;--> statement-breakpoint
ALTER TABLE `proposals` ADD `method` text;--> statement-breakpoint
ALTER TABLE `proposals` ADD `extra` text;
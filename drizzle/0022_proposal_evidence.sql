ALTER TABLE `proposals` ADD `lesson` text;--> statement-breakpoint
ALTER TABLE `proposals` ADD `evidence` text;
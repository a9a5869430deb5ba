ALTER TABLE `handoffs` ADD `agent` text;--> statement-breakpoint
ALTER TABLE `handoffs` ADD `model` text;--> statement-breakpoint
ALTER TABLE `proposals` ADD `agent` text;--> statement-breakpoint
ALTER TABLE `proposals` ADD `model` text;
ALTER TABLE `project_invitations` ADD `link_hash` text;--> statement-breakpoint
ALTER TABLE `project_invitations` ADD `link_expires_at` integer;--> statement-breakpoint
ALTER TABLE `project_invitations` ADD `mail_state` text;--> statement-breakpoint
CREATE UNIQUE INDEX `project_invitations_link_hash` ON `project_invitations` (`link_hash`);
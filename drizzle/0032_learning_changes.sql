CREATE TABLE `learning_changes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`seq` integer NOT NULL
);
--> statement-breakpoint
-- Each server keeps its learnings' search index in memory (lib/context/search) and reads the rows
-- after the last it applied, so every change to what the index holds is one row here: a learning
-- inserted, deleted, or changed in a column the index holds (its text and tags, kind, owner, state),
-- and every learning of a user whose name changes (a context names the writer). Bookkeeping columns
-- (last_injected_at, updated_at, files) are left out: reading a context writes them.
CREATE TRIGGER `learning_changes_insert` AFTER INSERT ON `learnings` BEGIN
  INSERT INTO `learning_changes` (`seq`) VALUES (new.`seq`);
END;
--> statement-breakpoint
CREATE TRIGGER `learning_changes_delete` AFTER DELETE ON `learnings` BEGIN
  INSERT INTO `learning_changes` (`seq`) VALUES (old.`seq`);
END;
--> statement-breakpoint
CREATE TRIGGER `learning_changes_update` AFTER UPDATE OF `id`, `kind`, `content`, `confirmed`, `tags`, `project_id`, `user_id`, `pinned`, `superseded_at`, `created_at` ON `learnings` BEGIN
  INSERT INTO `learning_changes` (`seq`) VALUES (new.`seq`);
END;
--> statement-breakpoint
CREATE TRIGGER `learning_changes_writer` AFTER UPDATE OF `name` ON `users` WHEN old.`name` IS NOT new.`name` BEGIN
  INSERT INTO `learning_changes` (`seq`) SELECT `seq` FROM `learnings` WHERE `user_id` = new.`id`;
END;
--> statement-breakpoint
-- The newest 100,000 changes are kept (CHANGES_KEPT in lib/context/search/index-sync.ts): an index
-- further behind than that loads the learnings again.
CREATE TRIGGER `learning_changes_keep` AFTER INSERT ON `learning_changes` BEGIN
  DELETE FROM `learning_changes` WHERE `id` <= new.`id` - 100000;
END;

CREATE TABLE `learning_counts` (
	`owner` text NOT NULL,
	`kind` text NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY(`owner`, `kind`)
);
--> statement-breakpoint
-- Kept at write time by the triggers below: a learning counts for its owner (its project, else its
-- user) and its kind. Triggers fire for rows a foreign key's cascade deletes too.
INSERT INTO `learning_counts` (`owner`, `kind`, `n`)
  SELECT CASE WHEN `project_id` IS NULL THEN 'user:' || `user_id` ELSE 'project:' || `project_id` END, `kind`, count(*)
  FROM `learnings` GROUP BY 1, 2;
--> statement-breakpoint
CREATE TRIGGER `learning_counts_insert` AFTER INSERT ON `learnings` BEGIN
  INSERT INTO `learning_counts` (`owner`, `kind`, `n`)
    VALUES (CASE WHEN new.`project_id` IS NULL THEN 'user:' || new.`user_id` ELSE 'project:' || new.`project_id` END, new.`kind`, 1)
    ON CONFLICT (`owner`, `kind`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `learning_counts_delete` AFTER DELETE ON `learnings` BEGIN
  UPDATE `learning_counts` SET `n` = `n` - 1
    WHERE `owner` = CASE WHEN old.`project_id` IS NULL THEN 'user:' || old.`user_id` ELSE 'project:' || old.`project_id` END AND `kind` = old.`kind`;
END;
--> statement-breakpoint
CREATE TRIGGER `learning_counts_update` AFTER UPDATE OF `kind`, `project_id`, `user_id` ON `learnings` BEGIN
  UPDATE `learning_counts` SET `n` = `n` - 1
    WHERE `owner` = CASE WHEN old.`project_id` IS NULL THEN 'user:' || old.`user_id` ELSE 'project:' || old.`project_id` END AND `kind` = old.`kind`;
  INSERT INTO `learning_counts` (`owner`, `kind`, `n`)
    VALUES (CASE WHEN new.`project_id` IS NULL THEN 'user:' || new.`user_id` ELSE 'project:' || new.`project_id` END, new.`kind`, 1)
    ON CONFLICT (`owner`, `kind`) DO UPDATE SET `n` = `n` + 1;
END;

-- A superseded learning is never in a context, so it does not count among what a context could draw on
-- ("Relevant learnings (N/total)", the session state's counts by kind). The triggers of 0015 count a
-- learning only while superseded_at is null, and superseding or restoring one moves the count.
DROP TRIGGER IF EXISTS `learning_counts_insert`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `learning_counts_delete`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `learning_counts_update`;--> statement-breakpoint
DELETE FROM `learning_counts`;--> statement-breakpoint
INSERT INTO `learning_counts` (`owner`, `kind`, `n`)
  SELECT CASE WHEN `project_id` IS NULL THEN 'user:' || `user_id` ELSE 'project:' || `project_id` END, `kind`, count(*)
  FROM `learnings` WHERE `superseded_at` IS NULL GROUP BY 1, 2;
--> statement-breakpoint
CREATE TRIGGER `learning_counts_insert` AFTER INSERT ON `learnings` WHEN new.`superseded_at` IS NULL BEGIN
  INSERT INTO `learning_counts` (`owner`, `kind`, `n`)
    VALUES (CASE WHEN new.`project_id` IS NULL THEN 'user:' || new.`user_id` ELSE 'project:' || new.`project_id` END, new.`kind`, 1)
    ON CONFLICT (`owner`, `kind`) DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `learning_counts_delete` AFTER DELETE ON `learnings` WHEN old.`superseded_at` IS NULL BEGIN
  UPDATE `learning_counts` SET `n` = `n` - 1
    WHERE `owner` = CASE WHEN old.`project_id` IS NULL THEN 'user:' || old.`user_id` ELSE 'project:' || old.`project_id` END AND `kind` = old.`kind`;
END;
--> statement-breakpoint
CREATE TRIGGER `learning_counts_update` AFTER UPDATE OF `kind`, `project_id`, `user_id`, `superseded_at` ON `learnings` BEGIN
  UPDATE `learning_counts` SET `n` = `n` - 1
    WHERE old.`superseded_at` IS NULL
      AND `owner` = CASE WHEN old.`project_id` IS NULL THEN 'user:' || old.`user_id` ELSE 'project:' || old.`project_id` END AND `kind` = old.`kind`;
  INSERT INTO `learning_counts` (`owner`, `kind`, `n`)
    SELECT CASE WHEN new.`project_id` IS NULL THEN 'user:' || new.`user_id` ELSE 'project:' || new.`project_id` END, new.`kind`, 1
    WHERE new.`superseded_at` IS NULL
    ON CONFLICT (`owner`, `kind`) DO UPDATE SET `n` = `n` + 1;
END;

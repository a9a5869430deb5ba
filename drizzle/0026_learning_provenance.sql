ALTER TABLE `learnings` ADD `origin` text DEFAULT 'typed' NOT NULL;--> statement-breakpoint
ALTER TABLE `learnings` ADD `proposal_id` text;--> statement-breakpoint
ALTER TABLE `learnings` ADD `agent` text;--> statement-breakpoint
ALTER TABLE `learnings` ADD `model` text;--> statement-breakpoint
ALTER TABLE `learnings` ADD `accepted_by` text REFERENCES users(id) ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE `learnings` ADD `accepted_at` integer;--> statement-breakpoint
ALTER TABLE `learnings` ADD `edited_by` text REFERENCES users(id) ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE `learnings` ADD `edited_at` integer;--> statement-breakpoint
CREATE INDEX `proposals_learning_idx` ON `proposals` (`learning_id`) WHERE "proposals"."learning_id" IS NOT NULL;--> statement-breakpoint
-- Provenance for learnings made before it was kept: from the proposal each was accepted from (its agent,
-- model, when it was decided, and who accepted it as the audit trail recorded), else imported when it
-- carries a seed's id, else typed. Joins, not a subquery per row: stores hold 100,000s of learnings.
UPDATE `learnings` SET `origin` = 'proposal', `proposal_id` = `p`.`id`, `agent` = `p`.`agent`, `model` = `p`.`model`, `accepted_at` = `p`.`decided_at`
FROM `proposals` `p` WHERE `p`.`learning_id` = `learnings`.`id`;--> statement-breakpoint
UPDATE `learnings` SET `accepted_by` = `a`.`actor`
FROM (
  SELECT `subject_id`, `actor_user_id` AS `actor`, max(`id`) FROM `audit_log`
  WHERE `subject_kind` = 'proposal' AND `action` = 'accept' GROUP BY `subject_id`
) `a`
WHERE `a`.`subject_id` = `learnings`.`proposal_id`;--> statement-breakpoint
UPDATE `learnings` SET `origin` = 'import' WHERE `proposal_id` IS NULL AND `external_id` IS NOT NULL;--> statement-breakpoint
UPDATE `learnings` SET `edited_by` = `accepted_by`, `edited_at` = `accepted_at`
FROM (
  SELECT DISTINCT `subject_id` FROM `audit_log`
  WHERE `subject_kind` = 'proposal' AND `action` = 'accept' AND `detail` LIKE '%edited before accepting%'
) `e`
WHERE `e`.`subject_id` = `learnings`.`proposal_id`;--> statement-breakpoint
UPDATE `learnings` SET `edited_by` = `e`.`actor`, `edited_at` = `e`.`at`
FROM (
  SELECT `subject_id`, `actor_user_id` AS `actor`, `created_at` AS `at`, max(`id`) FROM `audit_log`
  WHERE `subject_kind` = 'learning' AND `action` = 'edit' AND `detail` LIKE '%content%' GROUP BY `subject_id`
) `e`
WHERE `e`.`subject_id` = `learnings`.`id`;

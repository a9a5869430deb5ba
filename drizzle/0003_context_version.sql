-- A counter that changes whenever anything a context is made from changes. GET /api/context keys its
-- response cache on it, so every instance sharing this database sees a change at once. Bookkeeping
-- columns (learnings.last_injected_at, session claim times) are left out on purpose: reading a
-- context must not invalidate the cache it was served from.
INSERT OR IGNORE INTO `app_meta` (`key`, `value`, `created_at`) VALUES ('context_version', '0', 0);
--> statement-breakpoint
CREATE TRIGGER `learnings_context_version_insert` AFTER INSERT ON `learnings` BEGIN
  UPDATE `app_meta` SET `value` = CAST(`value` AS INTEGER) + 1 WHERE `key` = 'context_version';
END;
--> statement-breakpoint
CREATE TRIGGER `learnings_context_version_delete` AFTER DELETE ON `learnings` BEGIN
  UPDATE `app_meta` SET `value` = CAST(`value` AS INTEGER) + 1 WHERE `key` = 'context_version';
END;
--> statement-breakpoint
CREATE TRIGGER `learnings_context_version_update` AFTER UPDATE OF `kind`, `content`, `confirmed`, `tags`, `project_id`, `user_id` ON `learnings` BEGIN
  UPDATE `app_meta` SET `value` = CAST(`value` AS INTEGER) + 1 WHERE `key` = 'context_version';
END;
--> statement-breakpoint
CREATE TRIGGER `proposals_context_version_insert` AFTER INSERT ON `proposals` BEGIN
  UPDATE `app_meta` SET `value` = CAST(`value` AS INTEGER) + 1 WHERE `key` = 'context_version';
END;
--> statement-breakpoint
CREATE TRIGGER `proposals_context_version_delete` AFTER DELETE ON `proposals` BEGIN
  UPDATE `app_meta` SET `value` = CAST(`value` AS INTEGER) + 1 WHERE `key` = 'context_version';
END;
--> statement-breakpoint
CREATE TRIGGER `proposals_context_version_update` AFTER UPDATE OF `status`, `content`, `confidence`, `kind`, `project_id` ON `proposals` BEGIN
  UPDATE `app_meta` SET `value` = CAST(`value` AS INTEGER) + 1 WHERE `key` = 'context_version';
END;
--> statement-breakpoint
CREATE TRIGGER `handoffs_context_version_insert` AFTER INSERT ON `handoffs` BEGIN
  UPDATE `app_meta` SET `value` = CAST(`value` AS INTEGER) + 1 WHERE `key` = 'context_version';
END;
--> statement-breakpoint
CREATE TRIGGER `handoffs_context_version_delete` AFTER DELETE ON `handoffs` BEGIN
  UPDATE `app_meta` SET `value` = CAST(`value` AS INTEGER) + 1 WHERE `key` = 'context_version';
END;
--> statement-breakpoint
CREATE TRIGGER `handoffs_context_version_update` AFTER UPDATE ON `handoffs` BEGIN
  UPDATE `app_meta` SET `value` = CAST(`value` AS INTEGER) + 1 WHERE `key` = 'context_version';
END;
--> statement-breakpoint
CREATE TRIGGER `task_memories_context_version_insert` AFTER INSERT ON `task_memories` BEGIN
  UPDATE `app_meta` SET `value` = CAST(`value` AS INTEGER) + 1 WHERE `key` = 'context_version';
END;
--> statement-breakpoint
CREATE TRIGGER `task_memories_context_version_delete` AFTER DELETE ON `task_memories` BEGIN
  UPDATE `app_meta` SET `value` = CAST(`value` AS INTEGER) + 1 WHERE `key` = 'context_version';
END;
--> statement-breakpoint
CREATE TRIGGER `task_memories_context_version_update` AFTER UPDATE ON `task_memories` BEGIN
  UPDATE `app_meta` SET `value` = CAST(`value` AS INTEGER) + 1 WHERE `key` = 'context_version';
END;
--> statement-breakpoint
CREATE TRIGGER `active_tasks_context_version_insert` AFTER INSERT ON `active_tasks` BEGIN
  UPDATE `app_meta` SET `value` = CAST(`value` AS INTEGER) + 1 WHERE `key` = 'context_version';
END;
--> statement-breakpoint
CREATE TRIGGER `active_tasks_context_version_delete` AFTER DELETE ON `active_tasks` BEGIN
  UPDATE `app_meta` SET `value` = CAST(`value` AS INTEGER) + 1 WHERE `key` = 'context_version';
END;
--> statement-breakpoint
CREATE TRIGGER `active_tasks_context_version_update` AFTER UPDATE ON `active_tasks` BEGIN
  UPDATE `app_meta` SET `value` = CAST(`value` AS INTEGER) + 1 WHERE `key` = 'context_version';
END;
--> statement-breakpoint
CREATE TRIGGER `seeds_context_version_insert` AFTER INSERT ON `seeds` BEGIN
  UPDATE `app_meta` SET `value` = CAST(`value` AS INTEGER) + 1 WHERE `key` = 'context_version';
END;
--> statement-breakpoint
CREATE TRIGGER `seeds_context_version_delete` AFTER DELETE ON `seeds` BEGIN
  UPDATE `app_meta` SET `value` = CAST(`value` AS INTEGER) + 1 WHERE `key` = 'context_version';
END;
--> statement-breakpoint
CREATE TRIGGER `seeds_context_version_update` AFTER UPDATE ON `seeds` BEGIN
  UPDATE `app_meta` SET `value` = CAST(`value` AS INTEGER) + 1 WHERE `key` = 'context_version';
END;
--> statement-breakpoint
CREATE TRIGGER `session_docs_context_version_insert` AFTER INSERT ON `session_docs` BEGIN
  UPDATE `app_meta` SET `value` = CAST(`value` AS INTEGER) + 1 WHERE `key` = 'context_version';
END;
--> statement-breakpoint
CREATE TRIGGER `session_docs_context_version_delete` AFTER DELETE ON `session_docs` BEGIN
  UPDATE `app_meta` SET `value` = CAST(`value` AS INTEGER) + 1 WHERE `key` = 'context_version';
END;
--> statement-breakpoint
CREATE TRIGGER `session_docs_context_version_update` AFTER UPDATE OF `status`, `project_id` ON `session_docs` BEGIN
  UPDATE `app_meta` SET `value` = CAST(`value` AS INTEGER) + 1 WHERE `key` = 'context_version';
END;
--> statement-breakpoint
CREATE TRIGGER `projects_context_version_insert` AFTER INSERT ON `projects` BEGIN
  UPDATE `app_meta` SET `value` = CAST(`value` AS INTEGER) + 1 WHERE `key` = 'context_version';
END;
--> statement-breakpoint
CREATE TRIGGER `projects_context_version_delete` AFTER DELETE ON `projects` BEGIN
  UPDATE `app_meta` SET `value` = CAST(`value` AS INTEGER) + 1 WHERE `key` = 'context_version';
END;
--> statement-breakpoint
CREATE TRIGGER `projects_context_version_update` AFTER UPDATE ON `projects` BEGIN
  UPDATE `app_meta` SET `value` = CAST(`value` AS INTEGER) + 1 WHERE `key` = 'context_version';
END;
--> statement-breakpoint
CREATE TRIGGER `project_members_context_version_insert` AFTER INSERT ON `project_members` BEGIN
  UPDATE `app_meta` SET `value` = CAST(`value` AS INTEGER) + 1 WHERE `key` = 'context_version';
END;
--> statement-breakpoint
CREATE TRIGGER `project_members_context_version_delete` AFTER DELETE ON `project_members` BEGIN
  UPDATE `app_meta` SET `value` = CAST(`value` AS INTEGER) + 1 WHERE `key` = 'context_version';
END;
--> statement-breakpoint
CREATE TRIGGER `project_members_context_version_update` AFTER UPDATE ON `project_members` BEGIN
  UPDATE `app_meta` SET `value` = CAST(`value` AS INTEGER) + 1 WHERE `key` = 'context_version';
END;
--> statement-breakpoint
CREATE TRIGGER `project_matchers_context_version_insert` AFTER INSERT ON `project_matchers` BEGIN
  UPDATE `app_meta` SET `value` = CAST(`value` AS INTEGER) + 1 WHERE `key` = 'context_version';
END;
--> statement-breakpoint
CREATE TRIGGER `project_matchers_context_version_delete` AFTER DELETE ON `project_matchers` BEGIN
  UPDATE `app_meta` SET `value` = CAST(`value` AS INTEGER) + 1 WHERE `key` = 'context_version';
END;
--> statement-breakpoint
CREATE TRIGGER `project_matchers_context_version_update` AFTER UPDATE ON `project_matchers` BEGIN
  UPDATE `app_meta` SET `value` = CAST(`value` AS INTEGER) + 1 WHERE `key` = 'context_version';
END;
--> statement-breakpoint
CREATE TRIGGER `api_token_projects_context_version_insert` AFTER INSERT ON `api_token_projects` BEGIN
  UPDATE `app_meta` SET `value` = CAST(`value` AS INTEGER) + 1 WHERE `key` = 'context_version';
END;
--> statement-breakpoint
CREATE TRIGGER `api_token_projects_context_version_delete` AFTER DELETE ON `api_token_projects` BEGIN
  UPDATE `app_meta` SET `value` = CAST(`value` AS INTEGER) + 1 WHERE `key` = 'context_version';
END;
--> statement-breakpoint
CREATE TRIGGER `api_token_projects_context_version_update` AFTER UPDATE ON `api_token_projects` BEGIN
  UPDATE `app_meta` SET `value` = CAST(`value` AS INTEGER) + 1 WHERE `key` = 'context_version';
END;

-- Full-text index over learnings (content and tags), BM25-ranked, with Porter stemming so
-- "migrations" finds "migrate". External content: the text lives once, in learnings; the
-- triggers below keep the index in step with every insert, update and delete.
CREATE VIRTUAL TABLE `learnings_fts` USING fts5(`content`, `tags`, content='learnings', content_rowid='seq', tokenize='porter unicode61');
--> statement-breakpoint
CREATE TRIGGER `learnings_fts_insert` AFTER INSERT ON `learnings` BEGIN
  INSERT INTO `learnings_fts`(rowid, `content`, `tags`) VALUES (new.`seq`, new.`content`, new.`tags`);
END;
--> statement-breakpoint
CREATE TRIGGER `learnings_fts_delete` AFTER DELETE ON `learnings` BEGIN
  INSERT INTO `learnings_fts`(`learnings_fts`, rowid, `content`, `tags`) VALUES ('delete', old.`seq`, old.`content`, old.`tags`);
END;
--> statement-breakpoint
CREATE TRIGGER `learnings_fts_update` AFTER UPDATE OF `content`, `tags` ON `learnings` BEGIN
  INSERT INTO `learnings_fts`(`learnings_fts`, rowid, `content`, `tags`) VALUES ('delete', old.`seq`, old.`content`, old.`tags`);
  INSERT INTO `learnings_fts`(rowid, `content`, `tags`) VALUES (new.`seq`, new.`content`, new.`tags`);
END;

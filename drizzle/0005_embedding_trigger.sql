-- An edited learning needs a new vector: raise the flag the embedding worker reads. (Inserts get it
-- from the column default.) The worker lowers it only if the content is still the one it embedded.
CREATE TRIGGER `learnings_needs_embedding_update` AFTER UPDATE OF `content` ON `learnings` BEGIN
  UPDATE `learnings` SET `needs_embedding` = 1 WHERE `seq` = new.`seq`;
END;

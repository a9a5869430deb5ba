-- FTS5's built-in `rank` column (which it can order by inside its own index, fast) scores with these
-- BM25 column weights: content counts twice as much as tags.
INSERT INTO `learnings_fts`(`learnings_fts`, `rank`) VALUES ('rank', 'bm25(1.0, 0.5)');

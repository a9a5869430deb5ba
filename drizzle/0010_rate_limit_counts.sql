CREATE TABLE `rate_limit_counts` (
	`token_id` text NOT NULL,
	`window_start` integer NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`token_id`, `window_start`)
);

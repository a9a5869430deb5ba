// Stands in for "server-only" in the CLI bundle (see cli/build.mjs).

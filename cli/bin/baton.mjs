#!/usr/bin/env node
import { existsSync } from "node:fs";

const entry = new URL("../dist/baton.js", import.meta.url);
if (!existsSync(entry)) {
  console.error("baton: the CLI is not built yet. Run `npm install` (or `npm run build:cli`) in the Baton repository.");
  process.exit(1);
}
await import(entry.href);

import type { Principal } from "../auth/principal";
import type { Db } from "../db/client";

/** What every tool and resource of one MCP request works with: the database, who asks, and where the dashboard is. */
export type McpEnv = { db: Db; principal: Principal; dashboardUrl: string };

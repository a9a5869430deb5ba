import { sessionRoute } from "@/lib/sessions/session-routes";

export const POST = sessionRoute("release");

import { SLUG_MAX } from "@/lib/rules";

/**
 * A project name as a slug that SLUG_PATTERN accepts: accents dropped, lowercase, every run of other
 * characters one dash, no dash at either end, at most SLUG_MAX characters. "" when nothing is left.
 */
export function slugFromName(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+/, "")
    .slice(0, SLUG_MAX)
    .replace(/-+$/, "");
}

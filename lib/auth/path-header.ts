/** Request header through which proxy.ts tells pages the path asked for (for sign-in's return address). */
export const PATH_HEADER = "x-baton-path";

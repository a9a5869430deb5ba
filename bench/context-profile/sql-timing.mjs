// Preloaded into the built server by bench/context-profile.ts (`node --import`): times every SQLite statement
// the embedded database runs (prepare, execution, stepping through the rows), by SQL text, and writes
// the totals (and the first and the last call's arguments) to $BATON_SQL_TIMING_FILE when the process exits. A bench tool only: never in the app.
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

// The copy the server loads (CommonJS, shared by its ESM importers), from the app's own node_modules.
const Database = createRequire(path.join(process.cwd(), "package.json"))("libsql");

const bySql = new Map();
const entry = (sql) => {
  let e = bySql.get(sql);
  if (!e) bySql.set(sql, (e = { sql, calls: 0, prepareMs: 0, runMs: 0, rows: 0 }));
  return e;
};
const sqlOf = new WeakMap();
let patched = false;

// all() steps through iterate(): a call inside another is not counted twice.
let depth = 0;

function patchStatement(proto) {
  for (const name of ["run", "get", "all"]) {
    const original = proto[name];
    proto[name] = function (...args) {
      if (depth) return original.apply(this, args);
      const e = entry(sqlOf.get(this) ?? "?");
      e.example ??= args;
      e.last = args;
      const t = performance.now();
      depth++;
      try {
        const out = original.apply(this, args);
        if (Array.isArray(out)) e.rows += out.length;
        return out;
      } finally {
        depth--;
        e.calls++;
        e.runMs += performance.now() - t;
      }
    };
  }
  const iterate = proto.iterate;
  proto.iterate = function (...args) {
    if (depth) return iterate.apply(this, args);
    const e = entry(sqlOf.get(this) ?? "?");
    e.example ??= args;
    e.last = args;
    e.calls++;
    const t = performance.now();
    const it = iterate.apply(this, args);
    e.runMs += performance.now() - t;
    const next = it.next.bind(it);
    it.next = () => {
      const t2 = performance.now();
      const r = next();
      e.runMs += performance.now() - t2;
      if (!r.done) e.rows++;
      return r;
    };
    return it;
  };
}

const prepare = Database.prototype.prepare;
Database.prototype.prepare = function (sql) {
  const t = performance.now();
  const stmt = prepare.call(this, sql);
  entry(sql).prepareMs += performance.now() - t;
  sqlOf.set(stmt, sql);
  if (!patched) {
    patched = true;
    patchStatement(Object.getPrototypeOf(stmt));
  }
  return stmt;
};

// Written when the server is told to stop (it may be killed before it exits), and again at exit.
const dump = () => process.env.BATON_SQL_TIMING_FILE && writeFileSync(process.env.BATON_SQL_TIMING_FILE, JSON.stringify([...bySql.values()]));
process.on("SIGTERM", dump);
process.on("exit", dump);

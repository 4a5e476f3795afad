import type { Queryable } from '../db/db.js';

/**
 * A logical dump in plain SQL that runs the same on the embedded database
 * and on a Postgres server, without pg_dump: every table of the app's schema
 * read as JSON rows inside one snapshot, loaded back with
 * jsonb_populate_recordset into a schema built by the same migrations.
 */

export interface TableInfo {
  name: string;
  /** Columns a load writes: everything except generated (computed) columns. */
  columns: string[];
}

export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The migrations' own bookkeeping travels in the manifest, not as data. */
const NOT_DATA = new Set(['schema_migrations']);

/** The app's tables, parents before children (foreign keys), so a load never breaks a reference. */
export async function listTables(db: Queryable): Promise<TableInfo[]> {
  const tables = await db.query<{ name: string }>(
    `SELECT c.relname AS name
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition
      ORDER BY c.relname`,
  );
  const names = tables.map((t) => t.name).filter((n) => !NOT_DATA.has(n));
  const cols = await db.query<{ table: string; column: string }>(
    `SELECT c.relname AS "table", a.attname AS "column"
       FROM pg_attribute a
       JOIN pg_class c ON c.oid = a.attrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
      ORDER BY c.relname, a.attnum`,
  );
  const deps = await db.query<{ child: string; parent: string }>(
    `SELECT c.relname AS child, p.relname AS parent
       FROM pg_constraint k
       JOIN pg_class c ON c.oid = k.conrelid
       JOIN pg_class p ON p.oid = k.confrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE k.contype = 'f' AND n.nspname = current_schema() AND c.oid <> p.oid`,
  );
  const parents = new Map(names.map((n) => [n, new Set<string>()]));
  for (const d of deps) parents.get(d.child)?.add(d.parent);
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < names.length) {
    const ready = names.filter((n) => !placed.has(n) && [...parents.get(n)!].every((p) => placed.has(p) || !parents.has(p)));
    // A reference cycle cannot be ordered; it would need deferred constraints, which our schema never uses.
    if (ready.length === 0) throw new Error(`Tables reference each other in a cycle: ${names.filter((n) => !placed.has(n)).join(', ')}`);
    for (const n of ready) {
      placed.add(n);
      ordered.push(n);
    }
  }
  return ordered.map((name) => ({ name, columns: cols.filter((c) => c.table === name).map((c) => c.column) }));
}

export async function appliedMigrations(db: Queryable): Promise<string[]> {
  return (await db.query<{ version: string }>('SELECT version FROM schema_migrations ORDER BY version')).map((r) => r.version);
}

/** How a table's rows are written when they must not travel as they are (fixed SQL, never user input). */
export interface RowScrub {
  /** Leave every row out. */
  skipRows?: boolean;
  /** Columns replaced by an SQL expression over the row `t`. */
  set?: Record<string, string>;
}

/**
 * Reads one table in pages through a cursor. Must run inside the snapshot
 * transaction (a cursor lives in its transaction).
 */
export async function* readTable(tx: Queryable, table: string, opts: { pageRows?: number; scrub?: RowScrub } = {}): AsyncGenerator<string[]> {
  const { pageRows = 1000, scrub } = opts;
  const cursor = `dump_${table.replace(/[^a-z0-9_]/gi, '_')}`;
  const row = scrub?.set ? `to_jsonb(t) || jsonb_build_object(${Object.entries(scrub.set).map(([col, expr]) => `'${col}', ${expr}`).join(', ')})` : 'to_jsonb(t)';
  await tx.query(`DECLARE ${cursor} NO SCROLL CURSOR FOR SELECT (${row})::text AS r FROM ${quoteIdent(table)} t${scrub?.skipRows ? ' WHERE false' : ''}`);
  try {
    for (;;) {
      const rows = await tx.query<{ r: string }>(`FETCH ${pageRows} FROM ${cursor}`);
      if (rows.length === 0) return;
      yield rows.map((row) => row.r);
    }
  } finally {
    await tx.query(`CLOSE ${cursor}`);
  }
}

/** Starts the consistent read: must be the first statement of its transaction. */
export async function beginSnapshot(tx: Queryable): Promise<void> {
  await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
}

/** True when the app's schema holds no table at all (the only target a restore accepts). */
export async function schemaIsEmpty(db: Queryable): Promise<boolean> {
  const [row] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm')`,
  );
  return row.n === 0;
}

/**
 * Empties the tables a load fills (migrations seed some of them) and turns
 * off their own triggers, so derived rows (counters) come from the dump
 * rather than being counted twice. Foreign keys stay checked.
 */
export async function prepareLoad(tx: Queryable, tables: TableInfo[]): Promise<void> {
  if (tables.length === 0) return;
  await tx.query(`TRUNCATE ${tables.map((t) => quoteIdent(t.name)).join(', ')}`);
  for (const t of tables) await tx.query(`ALTER TABLE ${quoteIdent(t.name)} DISABLE TRIGGER USER`);
}

export async function loadRows(tx: Queryable, table: TableInfo, jsonRows: string[]): Promise<void> {
  if (jsonRows.length === 0) return;
  const cols = table.columns.map(quoteIdent).join(', ');
  await tx.query(
    `INSERT INTO ${quoteIdent(table.name)} (${cols}) OVERRIDING SYSTEM VALUE
     SELECT ${cols} FROM jsonb_populate_recordset(NULL::${quoteIdent(table.name)}, $1::jsonb)`,
    [`[${jsonRows.join(',')}]`],
  );
}

/** Turns triggers back on and moves every sequence past the loaded ids. */
export async function finishLoad(tx: Queryable, tables: TableInfo[]): Promise<void> {
  for (const t of tables) {
    await tx.query(`ALTER TABLE ${quoteIdent(t.name)} ENABLE TRIGGER USER`);
    for (const column of t.columns) {
      const [seq] = await tx.query<{ s: string | null }>('SELECT pg_get_serial_sequence($1, $2) AS s', [quoteIdent(t.name), column]);
      if (!seq?.s) continue;
      await tx.query(
        `SELECT setval($1, COALESCE((SELECT max(${quoteIdent(column)}) FROM ${quoteIdent(t.name)}), 1),
                (SELECT max(${quoteIdent(column)}) IS NOT NULL FROM ${quoteIdent(t.name)}))`,
        [seq.s],
      );
    }
  }
}

export async function rowCounts(db: Queryable, tables: TableInfo[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of tables) {
    const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${quoteIdent(t.name)}`);
    out[t.name] = row.n;
  }
  return out;
}

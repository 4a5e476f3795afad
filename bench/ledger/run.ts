/**
 * ENERGY ledger benchmark: concurrent spends through EnergyService against a
 * bare single-statement conditional UPDATE (no ledger row) at the same
 * concurrency, in the same process, on the same Postgres server and pool.
 *
 *   npx tsx bench/ledger/run.ts            (DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test)
 *
 * Works in a schema of its own, dropped at the end. Not part of the test run.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Db } from '../../src/server/db/db.js';
import { migrate } from '../../src/server/db/migrate.js';
import { openPostgres } from '../../src/server/db/postgres.js';
import { EnergyService } from '../../src/server/features/energy/energy.service.js';
import * as energyRepo from '../../src/server/features/energy/energy.repo.js';
import { AppError } from '../../src/server/core/errors.js';

const OPS = 1000;
const USERS = 100;
const ROUNDS = 5;
const POOL = 20;
const TARGET_RATIO = 0.5;

const url = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

interface RoundResult {
  opsPerSecond: number;
  latencies: number[];
  succeeded: number;
  refused: number;
}

/** Launches all ops at once (the pool queues what it cannot run yet) and times each. */
async function round(ops: number, op: (i: number) => Promise<unknown>): Promise<RoundResult> {
  const latencies: number[] = new Array(ops);
  let succeeded = 0;
  let refused = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: ops }, async (_, i) => {
      const t0 = performance.now();
      try {
        await op(i);
        succeeded += 1;
      } catch (err) {
        if (err instanceof AppError && err.code === 'insufficient_energy') refused += 1;
        else throw err;
      } finally {
        latencies[i] = performance.now() - t0;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { opsPerSecond: ops / seconds, latencies, succeeded, refused };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

interface Summary {
  label: string;
  opsPerSecond: number;
  p50: number;
  p99: number;
}

function summarize(label: string, rounds: RoundResult[]): Summary {
  const all = rounds.flatMap((r) => r.latencies).sort((a, b) => a - b);
  return { label, opsPerSecond: median(rounds.map((r) => r.opsPerSecond)), p50: percentile(all, 50), p99: percentile(all, 99) };
}

async function createUsers(db: Db, n: number, prefix: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `INSERT INTO users (email, full_name, password_hash)
     SELECT $1 || g || '@bench.local', 'Bench ' || g, 'not-a-hash' FROM generate_series(1, $2::int) g
     RETURNING id`,
    [prefix, n],
  );
  await db.query('INSERT INTO user_profiles (id) SELECT unnest($1::uuid[])', [rows.map((r) => r.id)]);
  return rows.map((r) => r.id);
}

async function main() {
  const schema = `bench_ledger_${randomBytes(4).toString('hex')}`;
  const db = await openPostgres({ connectionString: url, schema, max: POOL });
  const [{ server_version: version }] = await db.query<{ server_version: string }>('SHOW server_version');
  let failed = false;
  try {
    await migrate(db);
    const energy = new EnergyService(db);
    const budget = (OPS / USERS) * (ROUNDS + 1) + 10;

    // Ledger users get their ENERGY through the ledger; baseline users directly (the baseline has no ledger).
    const ledgerUsers = await createUsers(db, USERS, 'ledger');
    for (const id of ledgerUsers) await energy.grant(id, budget, 'bench grant');
    const txUsers = await createUsers(db, USERS, 'tx');
    for (const id of txUsers) await energy.grant(id, budget, 'bench grant');
    const bareUsers = await createUsers(db, USERS, 'bare');
    await db.query('UPDATE user_profiles SET energy_balance = $2 WHERE id = ANY($1::uuid[])', [bareUsers, budget]);

    const spend = (i: number) =>
      energy.spend({ userId: ledgerUsers[i % USERS], cost: 1, toolName: 'Bench', tool: 'fal-upscaler', description: 'bench spend' });
    // The previous design, for reference: BEGIN; conditional UPDATE; INSERT ledger row; COMMIT.
    const txSpend = (i: number) =>
      db.transaction(async (tx) => {
        const userId = txUsers[i % USERS];
        const balance = await energyRepo.debit(tx, userId, 1);
        if (balance === undefined) throw new AppError('insufficient_energy', 'short');
        await energyRepo.insertTransaction(tx, { userId, type: 'spend', description: 'bench spend', amount: -1 });
      });
    const bare = (i: number) =>
      db.query('UPDATE user_profiles SET energy_balance = energy_balance - 1 WHERE id = $1 AND energy_balance >= 1', [
        bareUsers[i % USERS],
      ]);

    // Warm-up (connections, plans, caches), then interleaved rounds so drift hits all alike.
    await round(OPS / 2, spend);
    await round(OPS / 2, txSpend);
    await round(OPS / 2, bare);
    const results: Record<'spend' | 'tx' | 'bare', RoundResult[]> = { spend: [], tx: [], bare: [] };
    for (let r = 0; r < ROUNDS; r++) {
      results.spend.push(await round(OPS, spend));
      results.tx.push(await round(OPS, txSpend));
      results.bare.push(await round(OPS, bare));
    }
    const refusedAnywhere = [...results.spend, ...results.tx, ...results.bare].some((r) => r.refused > 0 || r.succeeded !== OPS);
    if (refusedAnywhere) failed = true;

    // Zero overspend: one user, balance 500, 1000 concurrent spends of 1.
    const [hot] = await createUsers(db, 1, 'hot');
    await energy.grant(hot, 500, 'bench grant');
    const contention = await round(OPS, () =>
      energy.spend({ userId: hot, cost: 1, toolName: 'Bench', tool: 'fal-upscaler', description: 'hot spend' }),
    );
    const [hotState] = await db.query<{ balance: number; ledger: number }>(
      `SELECT energy_balance AS balance, (SELECT COALESCE(SUM(amount), 0)::int FROM energy_transactions WHERE user_id = $1) AS ledger
         FROM user_profiles WHERE id = $1`,
      [hot],
    );
    const overspendOk = contention.succeeded === 500 && contention.refused === 500 && hotState.balance === 0 && hotState.ledger === 0;

    // The books: balance == SUM(ledger) for every ledger-backed user.
    const [books] = await db.query<{ mismatched: number }>(
      `SELECT count(*)::int AS mismatched FROM user_profiles p
        WHERE p.id = ANY($1::uuid[])
          AND p.energy_balance <> (SELECT COALESCE(SUM(amount), 0) FROM energy_transactions t WHERE t.user_id = p.id)`,
      [[...ledgerUsers, ...txUsers, hot]],
    );

    const rows = [summarize('EnergyService.spend (spend_energy fn)', results.spend), summarize('BEGIN/UPDATE/INSERT/COMMIT (before)', results.tx), summarize('bare conditional UPDATE (baseline)', results.bare)];
    const ratio = rows[0].opsPerSecond / rows[2].opsPerSecond;
    const pad = (s: string, n: number) => s.padEnd(n);
    const num = (n: number, d = 0) => n.toFixed(d).padStart(9);

    console.log(`\nENERGY ledger benchmark - PostgreSQL ${version}, pool ${POOL}, ${OPS} concurrent spends of 1 per round over ${USERS} users,`);
    console.log(`${ROUNDS} rounds each (interleaved, after a warm-up); spends/s is the median round, latencies over all rounds.\n`);
    console.log(`${pad('', 38)}${'spends/s'.padStart(9)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}`);
    for (const r of rows) console.log(`${pad(r.label, 38)}${num(r.opsPerSecond)}${num(r.p50, 1)}${num(r.p99, 1)}`);
    console.log(
      `\nratio EnergyService.spend / bare UPDATE: ${ratio.toFixed(2)} (target >= ${TARGET_RATIO}) ${ratio >= TARGET_RATIO ? 'PASS' : 'BELOW TARGET'}`,
    );
    console.log(`ratio previous transaction design / bare UPDATE: ${(rows[1].opsPerSecond / rows[2].opsPerSecond).toFixed(2)}`);
    console.log(
      `\nzero overspend: ${OPS} concurrent spends of 1 on a balance of 500 -> ${contention.succeeded} succeeded, ` +
        `${contention.refused} refused (insufficient ENERGY), balance ${hotState.balance}, ledger sum ${hotState.ledger} ` +
        `${overspendOk ? 'PASS' : 'FAIL'}`,
    );
    console.log(`books: balance == SUM(ledger) for all ${USERS * 2 + 1} ledger users: ${books.mismatched === 0 ? 'PASS' : `FAIL (${books.mismatched} differ)`}`);
    if (refusedAnywhere) console.log('FAIL: a throughput round had refused spends (budget too small)');
    if (!overspendOk || books.mismatched !== 0) failed = true;
  } finally {
    await db.close();
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  }
  if (failed) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});


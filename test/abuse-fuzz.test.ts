import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, type TestApp, type TestUser } from './helpers/test-app.js';
import { createFakeAiProvider } from './helpers/fake-ai.js';
import { tempDir } from './library.fixtures.js';

/**
 * Hostile input against every route of the OpenAPI document, as an anonymous
 * caller, a user and an admin: NUL, lone surrogates, huge strings, deep
 * nesting, 1e309, "NaN", arrays and objects where scalars belong, in the
 * body, the query string and the path. No answer may be a 5xx, and a refused
 * call may not change the database. Runs are bounded (a fixed seed, a few
 * cases per route and caller) to keep the file quick.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 10);
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);

let t: TestApp;
let user: TestUser;
let admin: TestUser;
type Op = { method: string; url: string; bodyKeys: string[]; queryKeys: string[] };
let ops: Op[] = [];

// Streams that never end, and calls that end the caller's own session.
const SKIP = [/^GET \/api\/events$/, /^GET \/api\/docs/];
const SKIP_SIGNED_IN = [/sign-out/, /\/sessions/, /^DELETE \/api\/me/, /delete-account/];

const INFINITY = '__INFINITY__';
const NUL = '\u0000';

const SPECIALS: unknown[] = [
  NUL,
  `a${NUL}b`,
  '\ud800',
  'x\udc00y',
  'NaN',
  'Infinity',
  '-1',
  '',
  '   ',
  '\u200b',
  '\u202egnp.exe',
  '../../etc/passwd',
  '%00',
  INFINITY,
  -0,
  Number.MAX_SAFE_INTEGER + 2,
  1e-320,
  true,
  null,
  [],
  {},
  [1, 2],
  { $gt: '' },
  '__proto__',
  'x'.repeat(200_000),
];

/** Values no route should answer with a 5xx: mostly the known troublemakers, some random ones. */
const hostile: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...SPECIALS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })) },
  { weight: 1, arbitrary: fc.array(fc.string({ maxLength: 3 }), { maxLength: 3 }) },
  {
    weight: 1,
    arbitrary: fc.nat({ max: 60 }).map((depth) => {
      let v: unknown = 'deep';
      for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
      return v;
    }),
  },
);

/** The same values as text for paths and query strings (lone surrogates as the bytes a client would send). */
function asText(v: unknown): string {
  const s = typeof v === 'string' ? (v === INFINITY ? '1e309' : v) : JSON.stringify(v) ?? '';
  return s.replace(/[\ud800-\udfff]/g, '\ufffd').length === s.length
    ? encodeURIComponent(s.slice(0, 5000))
    : s.slice(0, 5000).replace(/[^\ud800-\udfff]/g, (c) => encodeURIComponent(c)).replace(/[\ud800-\udfff]/g, '%ED%A0%80');
}

function asJson(v: unknown): string {
  return JSON.stringify(v).replaceAll(`"${INFINITY}"`, '1e309');
}

const FINGERPRINT = [
  ['users', 'id, email, full_name, role, password_hash'],
  ['user_profiles', 'id, energy_balance, total_energy_purchased'],
  ['energy_transactions', 'id, user_id, amount'],
  ['uploaded_images', 'id, user_id, original_name, status, storage_path'],
  ['referral_invites', 'id, is_active, current_uses, max_uses'],
  ['tool_jobs', 'id, status'],
  ['checkout_sessions', 'id, status'],
  ['admin_tool_pricing', 'tool_name, base_energy_cost, discount_percentage, is_active'],
  ['plan_energy_mapping', 'price_id, energy_amount, bonus_energy, is_active'],
  ['referral_settings', 'is_referral_only'],
  ['admin_audit', 'id'],
]
  .map(([table, cols]) => `(SELECT md5(COALESCE(string_agg(r::text, ',' ORDER BY r::text), '')) FROM (SELECT ${cols} FROM ${table}) r)`)
  .join(" || ' ' || ");

/** What a refused call must leave as it was (attempt counters and session expiry may move). */
async function fingerprint(): Promise<string> {
  const rows = await t.db.query<{ h: string }>(`SELECT ${FINGERPRINT} AS h`);
  return rows[0]!.h;
}

beforeAll(async () => {
  t = await createTestApp({ DATA_DIR: tempDir('pr-fuzz-') }, { provider: createFakeAiProvider({ delayMs: 0 }) });
  user = await registerUser(t, { energy: 50 });
  admin = await registerUser(t, { role: 'admin', energy: 50 });
  const doc = (await t.app.inject({ url: '/api/docs/json' })).json() as {
    paths: Record<string, Record<string, { parameters?: { in: string; name: string }[]; requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> } }>>;
  };
  ops = Object.entries(doc.paths).flatMap(([url, methods]) =>
    Object.entries(methods)
      .filter(([m]) => ['get', 'post', 'put', 'delete', 'patch'].includes(m))
      .map(([m, op]) => ({
        method: m.toUpperCase(),
        url,
        bodyKeys: Object.keys(op.requestBody?.content?.['application/json']?.schema?.properties ?? {}),
        queryKeys: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
      }))
      .filter((o) => !SKIP.some((re) => re.test(`${o.method} ${o.url}`))),
  );
}, 60_000);
afterAll(() => t?.close());

describe('hostile input never makes a 5xx, and refused calls change nothing', () => {
  it('the route list is the whole API', () => {
    expect(ops.length).toBeGreaterThan(40);
  });

  for (const role of ['anonymous', 'user', 'admin'] as const) {
    it(`as ${role}`, async () => {
      const headers = role === 'user' ? user.headers : role === 'admin' ? admin.headers : {};
      const found: string[] = [];
      for (const op of ops) {
        if (role !== 'anonymous' && SKIP_SIGNED_IN.some((re) => re.test(`${op.method} ${op.url}`))) continue;
        const request = fc.record({
          path: fc.array(hostile, { minLength: 4, maxLength: 4 }),
          query: fc.dictionary(fc.constantFrom(...op.queryKeys, 'x'), hostile, { maxKeys: 3 }),
          // Every field poisoned alike, fields poisoned apart, or the body itself hostile.
          body: fc.oneof(
            { weight: 3, arbitrary: hostile.map((v) => Object.fromEntries([...op.bodyKeys, 'extra'].map((k) => [k, v]))) },
            { weight: 1, arbitrary: fc.dictionary(fc.constantFrom(...op.bodyKeys, 'extra'), hostile, { maxKeys: 4 }) },
            { weight: 1, arbitrary: hostile },
          ),
          ip: fc.tuple(fc.nat({ max: 255 }), fc.nat({ max: 255 })),
        });
        await fc.assert(
          fc.asyncProperty(request, async (r) => {
            let i = 0;
            const path = op.url.replace(/\{\w+\}/g, () => asText(r.path[i++]));
            const qs = Object.entries(r.query).map(([k, v]) => `${encodeURIComponent(k)}=${asText(v)}`).join('&');
            const before = await fingerprint();
            const res = await t.app.inject({
              method: op.method as 'POST',
              url: qs ? `${path}?${qs}` : path,
              remoteAddress: `10.77.${r.ip[0]}.${r.ip[1]}`,
              headers: { ...headers, 'content-type': 'application/json', prefer: 'respond-async' },
              ...(op.method === 'GET' || op.method === 'DELETE' ? {} : { payload: asJson(r.body) }),
            });
            if (res.statusCode >= 500) {
              found.push(`${role} ${op.method} ${op.url} -> ${res.statusCode} ${res.body.slice(0, 200)}`);
              return false;
            }
            if (res.statusCode >= 400 && (await fingerprint()) !== before) {
              found.push(`${role} ${op.method} ${op.url} -> ${res.statusCode} changed the database`);
              return false;
            }
            return true;
          }),
          { numRuns: RUNS, seed: SEED, endOnFailure: true },
        ).catch(() => {});
      }
      expect(found).toEqual([]);
    }, 300_000);
  }
});

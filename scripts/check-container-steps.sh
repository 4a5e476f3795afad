#!/usr/bin/env bash
# The Dockerfile's install, build and start steps, run on this host in a
# temporary directory (there is no container runtime here): the same commands
# in the same order, then the compiled server on the trimmed production-only
# install. Keep in step with the Dockerfile.
#
# It prints the install's size and the idle server's memory, and runs each of
# the five tools once (scripts/smoke-tools.mjs): on the embedded database and
# local disk, or, when CONTAINER_DATABASE_URL is set, on that Postgres server
# (in a schema of its own) with an S3 bucket (s3rver) whose files browsers get
# through the app, as compose runs it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/pixelrush-container-XXXXXX")"
server_pid=""
s3_pid=""
schema=""
cleanup() {
  for pid in "$server_pid" "$s3_pid"; do
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; fi
  done
  if [ -n "$schema" ]; then drop_schema || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
step() { echo "--- $*"; }
mb() { du -sm "$1" | cut -f1; }
secret="$(node -e "console.log(require('crypto').randomBytes(32).toString('hex'))")"
free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }

# Build context: the work tree minus what .dockerignore leaves out.
mkdir -p "$work/build" "$work/runtime" "$work/data"
tar -C "$root" --exclude-from="$root/.dockerignore" -cf - . | tar -C "$work/build" -xf -

step "build stage: npm ci --ignore-scripts && npm run build"
(cd "$work/build" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error && npm run build --silent)

step "runtime stage: npm ci --omit=dev --ignore-scripts, prune-install.mjs, then the compiled dist/ only"
cp "$work/build/package.json" "$work/build/package-lock.json" "$work/build/.npmrc" "$work/build/scripts/prune-install.mjs" "$work/runtime/"
(cd "$work/runtime" && npm ci --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error)
installed_mb="$(mb "$work/runtime/node_modules")"
# The image installs Debian's ffmpeg first; a host without one keeps the npm-shipped fallback.
if command -v ffmpeg >/dev/null && command -v ffprobe >/dev/null; then prune_flags=(--system-ffmpeg); else prune_flags=(); fi
(cd "$work/runtime" && node prune-install.mjs "${prune_flags[@]}" node_modules && rm prune-install.mjs)
cp -R "$work/build/dist" "$work/runtime/dist"
for dev in typescript tsx vite esbuild tailwindcss vitest pino-pretty; do
  if [ -e "$work/runtime/node_modules/$dev" ]; then echo "runtime stage has a development package: $dev" >&2; exit 1; fi
done
if [ -e "$work/runtime/src" ]; then echo "runtime stage has sources" >&2; exit 1; fi
echo "install size: node_modules $installed_mb MB as npm installs it, $(mb "$work/runtime/node_modules") MB pruned; dist $(mb "$work/runtime/dist") MB; the app's layers $(mb "$work/runtime") MB"

# The local AI's worker threads load their modules by URL from dist/server: one real
# tile through ONNX Runtime and one through TensorFlow.js (wasm) on the pruned install.
(cd "$work/runtime" && node -e "
  const { Worker } = require('node:worker_threads');
  const w = new Worker(require('node:path').resolve('dist/server/tf-worker.mjs'));
  const ask = (msg) => new Promise((resolve, reject) => {
    w.once('message', (m) => (m.ok ? resolve(m) : reject(new Error(m.error))));
    w.postMessage(msg);
  });
  const tile = () => new Uint8Array(24 * 24 * 3).map((_, i) => (i * 7) % 251);
  (async () => {
    for (const backend of ['onnx', 'wasm']) {
      const out = await ask({ id: 1, kind: 'esrgan', model: 'esrgan-slim', scale: 2, backend, width: 24, height: 24, data: tile() });
      if (out.width !== 48 || out.height !== 48) throw new Error(backend + ': ' + out.width + 'x' + out.height);
      console.log('local AI worker: esrgan-slim x2 on ' + (out.backend ?? backend) + ' OK');
    }
    await w.terminate();
  })().catch((e) => { console.error('tf worker failed:', e.message); process.exit(1); });
")

# start_server <log name> [VAR=value...]: the compiled server as the image runs it.
start_server() {
  local name="$1"
  shift
  port="$(free_port)"
  (
    cd "$work/runtime"
    exec env -u DATABASE_URL NODE_ENV=production HOST=127.0.0.1 PORT="$port" DATA_DIR="$work/data" \
      APP_SECRET="$secret" ADMIN_EMAILS=smoke@container.test LOG_LEVEL=warn "$@" node dist/server/main.js
  ) >"$work/$name.log" 2>&1 &
  server_pid=$!
  local started=$SECONDS
  ready=""
  for _ in $(seq 1 240); do
    if ready="$(node -e "fetch('http://127.0.0.1:$port/api/ready').then(async r=>{console.log(await r.text());process.exit(r.ok?0:1)},()=>process.exit(1))" 2>/dev/null)"; then break; fi
    if ! kill -0 "$server_pid" 2>/dev/null; then cat "$work/$name.log" >&2; echo "the compiled server exited before it was ready" >&2; exit 1; fi
    ready=""
    sleep 0.5
  done
  if [ -z "$ready" ]; then echo "no healthy /api/ready in 120 s" >&2; exit 1; fi
  echo "/api/ready after $((SECONDS - started)) s: $ready"
}

# The resident memory of the idle server, 10 s after it is ready (Linux /proc).
idle_rss() {
  sleep 10
  if [ -r "/proc/$server_pid/status" ]; then
    echo "idle RSS ($1): $(awk '/^VmRSS/{printf "%d MB", $2/1024}' "/proc/$server_pid/status")"
  fi
}

stop_server() {
  kill -TERM "$server_pid"
  local code=0
  wait "$server_pid" || code=$?
  server_pid=""
  if [ "$code" != 0 ]; then cat "$work/$1.log" >&2; echo "the server exited with $code after SIGTERM" >&2; exit 1; fi
}

drop_schema() {
  (cd "$work/runtime" && node -e "
    const pg = require('pg');
    const c = new pg.Client({ connectionString: process.argv[1] });
    c.connect().then(() => c.query('DROP SCHEMA IF EXISTS \"' + process.argv[2] + '\" CASCADE; DROP SCHEMA IF EXISTS \"' + process.argv[2] + '_boss\" CASCADE')).finally(() => c.end());
  " "$CONTAINER_DATABASE_URL" "$schema")
}

step "start: node dist/server/main.js (NODE_ENV=production, embedded database)"
start_server embedded
idle_rss "first start, a new database"
(cd "$work/runtime" && node dist/server/cli.js help >/dev/null)
step "stop: SIGTERM drains and exits 0"
stop_server embedded
step "start again on the same data"
start_server embedded-again
idle_rss "restart"

if [ -z "${CONTAINER_DATABASE_URL:-}" ]; then
  step "five tools, embedded database and local disk (set CONTAINER_DATABASE_URL for Postgres + S3)"
  node "$root/scripts/smoke-tools.mjs" "http://127.0.0.1:$port" smoke@container.test
  stop_server embedded-again
else
  stop_server embedded-again
  step "five tools on Postgres (a schema of its own) and S3 (s3rver) with app links, as compose runs them"
  schema="container_$(node -e "console.log(require('crypto').randomBytes(4).toString('hex'))")"
  s3_port="$(free_port)"
  mkdir -p "$work/s3"
  # s3rver is a development package: it runs from the build stage's install.
  (cd "$work/build" && exec node -e "
    const S3rver = require('s3rver');
    new S3rver({ address: '127.0.0.1', port: Number(process.argv[1]), silent: true, directory: process.argv[2],
      configureBuckets: [{ name: 'pixelrush', configs: [] }] }).run();
  " "$s3_port" "$work/s3") &
  s3_pid=$!
  database_url="$(node -e "const u=new URL(process.argv[1]);u.searchParams.set('options','-c search_path='+process.argv[2]);console.log(u.toString())" "$CONTAINER_DATABASE_URL" "$schema")"
  start_server postgres DATABASE_URL="$database_url" S3_BUCKET=pixelrush S3_ENDPOINT="http://127.0.0.1:$s3_port" \
    S3_ACCESS_KEY_ID=S3RVER S3_SECRET_ACCESS_KEY=S3RVER S3_LINKS=app
  idle_rss "Postgres server"
  node "$root/scripts/smoke-tools.mjs" "http://127.0.0.1:$port" smoke@container.test
  stop_server postgres
  kill "$s3_pid" && wait "$s3_pid" 2>/dev/null || true
  s3_pid=""
fi
echo "container steps: OK"

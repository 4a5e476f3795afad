#!/usr/bin/env bash
# The Dockerfile's install, build and start steps, run on this host in a
# temporary directory (there is no container runtime here): the same commands
# in the same order, ending in a healthy /api/ready from the compiled server
# with only runtime dependencies installed. Keep in step with the Dockerfile.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/pixelrush-container-XXXXXX")"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then kill -KILL "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
step() { echo "--- $*"; }

# Build context: the work tree minus what .dockerignore leaves out.
mkdir -p "$work/build" "$work/runtime" "$work/data"
tar -C "$root" --exclude-from="$root/.dockerignore" -cf - . | tar -C "$work/build" -xf -

step "build stage: npm ci && npm run build"
(cd "$work/build" && npm ci --no-audit --no-fund --loglevel=error && npm run build --silent)

step "runtime stage: npm ci --omit=dev, then the compiled dist/ only"
cp "$work/build/package.json" "$work/build/package-lock.json" "$work/build/.npmrc" "$work/runtime/"
(cd "$work/runtime" && npm ci --omit=dev --no-audit --no-fund --loglevel=error)
cp -R "$work/build/dist" "$work/runtime/dist"
for dev in typescript tsx vite esbuild tailwindcss vitest; do
  if [ -e "$work/runtime/node_modules/$dev" ]; then echo "runtime stage has a build tool: $dev" >&2; exit 1; fi
done
if [ -e "$work/runtime/src" ]; then echo "runtime stage has sources" >&2; exit 1; fi

step "start: node dist/server/main.js (NODE_ENV=production)"
port="$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
(
  cd "$work/runtime"
  exec env -u DATABASE_URL NODE_ENV=production HOST=127.0.0.1 PORT="$port" DATA_DIR="$work/data" \
    APP_SECRET="$(node -e "console.log(require('crypto').randomBytes(32).toString('hex'))")" \
    LOG_LEVEL=warn node dist/server/main.js
) &
server_pid=$!
ready=""
for _ in $(seq 1 240); do
  if ready="$(node -e "fetch('http://127.0.0.1:$port/api/ready').then(async r=>{console.log(await r.text());process.exit(r.ok?0:1)},()=>process.exit(1))" 2>/dev/null)"; then break; fi
  if ! kill -0 "$server_pid" 2>/dev/null; then echo "the compiled server exited before it was ready" >&2; exit 1; fi
  ready=""
  sleep 0.5
done
if [ -z "$ready" ]; then echo "no healthy /api/ready in 120 s" >&2; exit 1; fi
echo "/api/ready: $ready"
(cd "$work/runtime" && node dist/server/cli.js help >/dev/null)
# The local AI's worker threads load their modules by URL from dist/server.
(cd "$work/runtime" && node -e "
  const { Worker } = require('node:worker_threads');
  const w = new Worker(require('node:path').resolve('dist/server/tf-worker.mjs'));
  w.on('error', (e) => { console.error('tf worker failed to load:', e.message); process.exit(1); });
  w.on('online', () => setTimeout(() => w.terminate().then(() => process.exit(0)), 1500));
")

step "stop: SIGTERM drains and exits 0"
kill -TERM "$server_pid"
code=0
wait "$server_pid" || code=$?
server_pid=""
if [ "$code" != 0 ]; then echo "the server exited with $code after SIGTERM" >&2; exit 1; fi
echo "container steps: OK"

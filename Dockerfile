# syntax=docker/dockerfile:1
# PixelRush: build stage compiles the UI and the server; the runtime stage has
# only runtime dependencies (trimmed to this platform), Debian's ffmpeg and the
# compiled code.
#
# scripts/check-container-steps.sh runs these same install, build and start
# steps on a host without a container runtime (CI does): change both together.

# Node 22 LTS, pinned by digest (the multi-platform index of this tag), so a
# rebuild gets the same base until someone moves the pin on purpose.
ARG NODE_IMAGE=node:22.23.3-bookworm-slim@sha256:c3de60bf2f9dd0ac6370e6117950ff62d6e339527e7472301c9c78a017978392

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# The typed client is a workspace (the type check reaches it through node_modules); the
# runtime stage below leaves it out, as nothing the server runs imports it.
COPY packages/client/package.json packages/client/
# --ignore-scripts: no dependency runs code at install. The image's npm may be
# older than the one that reads package.json `allowScripts`, and none of the
# dependencies' install scripts is needed (onnxruntime-node's would download GPU
# libraries).
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build

FROM ${NODE_IMAGE} AS runtime
# Debian's ffmpeg: maintained and security-patched (FFMPEG_PATH/FFPROBE_PATH can point elsewhere).
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg ca-certificates \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY package.json package-lock.json .npmrc scripts/prune-install.mjs ./
# Then drop what this image never loads: other platforms' ONNX Runtime builds,
# the npm-shipped ffmpeg fallback (Debian's is installed above), the unused
# TensorFlow.js umbrella and source maps (see prune-install.mjs).
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && node prune-install.mjs --system-ffmpeg node_modules \
 && rm prune-install.mjs \
 && npm cache clean --force
COPY --from=build /app/dist ./dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# node handles SIGTERM itself (the drain); give `docker stop` more than SHUTDOWN_GRACE_SECONDS
# (e.g. --time 40), and run with --init (compose: init: true) so stray children are reaped.
STOPSIGNAL SIGTERM
CMD ["node", "dist/server/main.js"]

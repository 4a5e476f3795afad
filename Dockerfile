# syntax=docker/dockerfile:1
# PixelRush: build stage compiles the UI and the server; the runtime stage has
# only runtime dependencies, Debian's ffmpeg and the compiled code.
#
# scripts/check-container-steps.sh runs these same install, build and start
# steps on a host without a container runtime (CI does): change both together.

ARG NODE_IMAGE=node:22-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
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
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
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

# syntax=docker/dockerfile:1
# Lookup Graph production image. Built in two stages: the first installs every dependency from the lock
# file (npm ci) and runs `npm run build` (the same script CI runs); the second keeps only production
# dependencies and dist/. Tag it with package.json's version, which /healthz reports.
# This repository's CI cannot build images (no Docker daemon there); every command below is an npm
# script or npm command that .ci/run exercises.

ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY schema ./schema
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4000
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./package.json
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
# Read at run time next to dist/: the printed schema and the GraphiQL examples.
COPY --from=build --chown=node:node /app/schema ./schema
# Sizes V8's heap and the caches from the container's memory limit (or MEMORY_LIMIT_MB), then execs node.
COPY deploy/entrypoint.sh ./deploy/entrypoint.sh
USER node
EXPOSE 4000
# Liveness only (GET /healthz on PORT); readiness is /readyz, for the load balancer.
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 CMD ["node", "dist/healthcheck.js"]
# Exec form, and the entry point execs node: node runs as PID 1 (no shell left, no npm) and receives
# SIGTERM itself, so the drain runs. CMD is node's arguments.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/bin/sh", "deploy/entrypoint.sh"]
CMD ["dist/main.js"]

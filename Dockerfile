# syntax=docker/dockerfile:1
# The site as one image: the gateway, the built SPA and the embedded backend (SQLite in /data).
#   docker build -t moredoc-site .
#   docker run -p 3000:3000 -v moredoc-data:/data moredoc-site
# Or `docker compose up` (docker-compose.yml). See "Running in production" in docs/operations.md.

ARG NODE_IMAGE=node:22-bookworm-slim

# better-sqlite3 compiles from source when no prebuilt binary matches the platform, so the
# stages that run `npm ci` carry a C++ toolchain; the runtime stage does not.
FROM ${NODE_IMAGE} AS toolchain
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app

# Every dependency, then the SPA (web/dist, with .br/.gz beside each asset) and the server
# bundle (dist/server).
FROM toolchain AS build
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# The commit the admin dashboard shows (构建哈希): the context has no .git, so pass it:
#   docker build --build-arg BUILD_HASH=$(git rev-parse HEAD) .
# `npm run build` records it and the build time in dist/server/build-info.json.
ARG BUILD_HASH=
RUN npm run build

# Production dependencies only: the server bundles import the native addons, the packages that
# read files of their own and the SDKs loaded on first use from node_modules
# (PACKAGES_OUTSIDE, backend/platform/thread-modules.ts); they carry the others in themselves.
FROM toolchain AS prod-deps
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
# PDFs and what MuPDF opens itself (EPUB, MOBI, FB2, CBZ, images, text) convert with nothing
# installed. Office files and the other ebook formats need LibreOffice and calibre with CJK
# fonts, about 800 MB more: `docker build --build-arg OFFICE_CONVERTERS=true .`
ARG OFFICE_CONVERTERS=false
RUN if [ "$OFFICE_CONVERTERS" = "true" ]; then \
      apt-get update \
      && apt-get install -y --no-install-recommends libreoffice-writer-nogui libreoffice-calc-nogui \
         libreoffice-impress-nogui calibre fonts-noto-cjk \
      && rm -rf /var/lib/apt/lists/*; \
    fi
# Two malloc arenas instead of eight per core: the conversion threads' freed memory goes back
# to the system instead of staying in their arenas (docs/operations.md, "Memory"). The days the
# site counts (a sign-in a day, downloads a day, upload rewards) are the server's, as MOREDOC's:
# China's here, as the pages show times, not UTC's (docs/operations.md, "Time zone").
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    TZ=Asia/Shanghai \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/dist/server ./dist/server
COPY --from=build /app/web/dist ./web/dist
# The official image's unprivileged `node` user (uid 1000) owns the data volume.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=300s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--max-semi-space-size=8", "dist/server/gateway/server.mjs"]

# syntax=docker/dockerfile:1
#
# `kalah serve`, the browser game, in a container: docs/hosting.md ("In a container") says how to
# run it, alone on an SQLite file or as deploy/compose.yaml's replicas on PostgreSQL.
#
#   docker build -t kalah .
#   docker run -d -p 8080:8080 -v kalah-data:/data kalah
#
# The workspace pins no toolchain file: it builds with stable Rust, 1.85 or newer. The builder's
# version is pinned here so that an image rebuilt later is built the same way; raise it on purpose.
ARG RUST_VERSION=1.95
# The builder and the runtime are the same Debian release, so the binary finds the C library it
# was linked against.
ARG DEBIAN=bookworm

FROM rust:${RUST_VERSION}-slim-${DEBIAN} AS build
WORKDIR /src
COPY . .
# Cargo.lock as committed (--locked: a build that would change it fails) and the binary only (-p
# kalah), not the Python or WebAssembly crates. The registry and target folder are caches of the
# builder, so a rebuild after a change compiles only what changed; the binary is copied out of
# the cached target folder in the same step. The release profile keeps line tables for
# profiling; the image drops them (74 MB to 14 MB) and keeps the symbols, so a panic's backtrace
# still names its functions.
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    cargo build --locked --release -p kalah \
    && install -D -m 0755 target/release/kalah /out/kalah \
    && strip --strip-debug /out/kalah

FROM debian:${DEBIAN}-slim
# The binary needs only the C library (SQLite is built in, TLS is rustls). busybox (under 1 MB)
# gives the health check its wget, where curl would bring a dozen libraries; the certificate
# authorities let --db reach a PostgreSQL with sslmode=verify-full.
RUN apt-get update \
    && apt-get install -y --no-install-recommends busybox ca-certificates \
    && rm -rf /var/lib/apt/lists/*
# A user of its own, not root. /data is made here and given to it before it becomes a volume, so
# a new named volume starts out owned by that user (Docker copies the folder's owner to it).
RUN useradd --system --user-group --uid 10001 --home-dir /data --no-create-home --shell /usr/sbin/nologin kalah \
    && mkdir /data \
    && chown kalah:kalah /data
COPY --from=build /out/kalah /usr/local/bin/kalah
USER kalah
# The games (an SQLite file, unless --db names a PostgreSQL) and the user's home: endgame databases
# built with `kalah egdb build` land in /data/.cache/kalah/egdb, where kalah serve finds them.
VOLUME /data
WORKDIR /data
EXPOSE 8080
# What `docker stop` sends, and what kalah serve stops cleanly on (as on Ctrl-C).
STOPSIGNAL SIGTERM
# Liveness only: /healthz answers 200 while the process serves. Whether the store answers is
# /readyz, which the reverse proxy asks before it sends a replica requests (deploy/Caddyfile): a
# database that is down should take a replica out of rotation, not get it restarted. busybox's
# wget exits 1 on an error status or a refused connection; `|| exit 1` keeps any other failure
# at 1, the status Docker reads as unhealthy. The port is the one CMD listens on.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD busybox wget -q -O /dev/null http://127.0.0.1:8080/healthz || exit 1
ENTRYPOINT ["/usr/local/bin/kalah"]
# Every network of the container (the port is published, or reached by the proxy), the games on
# the volume, a line a request on standard output (`docker logs`). deploy/compose.yaml replaces
# this with the PostgreSQL flags.
CMD ["serve", "--host", "0.0.0.0", "--port", "8080", "--db", "/data/games.sqlite", "--access-log", "-"]

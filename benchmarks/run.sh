#!/usr/bin/env bash
# `make bench`: make sure PostgreSQL, Redis and hey/wrk are there (as .ci/run does), create the benchmark's
# database if missing, then run benchmarks/run.py. `--sqlite` measures the newcomer defaults instead (a SQLite
# file, local-memory cache) and writes benchmarks/RESULTS-sqlite.md.
# Environment: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/dugout_bench), BENCH_REDIS_URL
# (default redis://127.0.0.1:6379/9), BENCH_SECONDS (per load run, default 8), BENCH_SEED_ARGS (e.g. --reset).
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive
if ! command -v hey >/dev/null || ! command -v wrk >/dev/null; then
  apt-get update -qq && apt-get install -y -qq hey wrk >/dev/null
fi
if [ "${1:-}" = "--sqlite" ]; then
  mkdir -p var
  exec .venv/bin/python benchmarks/run.py --database-url "sqlite:///$PWD/var/bench.sqlite3" --redis-url "" \
    --results benchmarks/RESULTS-sqlite.md
fi
URL=${BENCH_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/dugout_bench}
if ! pg_isready -h 127.0.0.1 -p 5432 -q; then
  command -v pg_ctlcluster >/dev/null || apt-get install -y -qq postgresql >/dev/null
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start
  for _ in $(seq 1 30); do pg_isready -h 127.0.0.1 -p 5432 -q && break; sleep 1; done
fi
if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  command -v redis-server >/dev/null || apt-get install -y -qq redis-server >/dev/null
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/bench.log
  for _ in $(seq 1 30); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 1; done
fi
DB=${URL##*/}
psql "${URL%/*}/postgres" -tAc "SELECT 1 FROM pg_database WHERE datname = '$DB'" | grep -q 1 \
  || psql "${URL%/*}/postgres" -qc "CREATE DATABASE \"$DB\""
exec .venv/bin/python benchmarks/run.py --database-url "$URL"

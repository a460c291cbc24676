#!/usr/bin/env bash
# Sets everything up, then runs the whole test suite (real Chromium, real cucumber-js).
set -euo pipefail
cd "$(dirname "$0")/.."
bash infra/setup.sh

# The registry and service tests need PostgreSQL on 127.0.0.1:5432 (user postgres, trust auth for local tests).
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
  if ! ls /etc/postgresql/*/main >/dev/null 2>&1; then
    echo "== installing postgresql"
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq postgresql >/dev/null
  fi
  echo "== starting postgresql"
  as_root pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | sort -V | tail -1)" main start || true
  for _ in $(seq 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
fi

# The service tests need Redis on 127.0.0.1:6379 (the Celery broker); the fault suite starts redis-server
# itself, on a port of its own.
if ! command -v redis-server >/dev/null; then
  echo "== installing redis"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq redis-server >/dev/null
fi
if ! (exec 3<>/dev/tcp/127.0.0.1/6379) 2>/dev/null; then
  echo "== starting redis"
  redis-server --bind 127.0.0.1 --port 6379 --daemonize yes --save "" --appendonly no >/dev/null
  for _ in $(seq 30); do (exec 3<>/dev/tcp/127.0.0.1/6379) 2>/dev/null && break; sleep 1; done
fi
# Five processes (pytest-xdist) on two cores: a test spends much of its time waiting for a page, a worker, a lease or
# a changed application's time limit. On 2026-12-03, at -n 4 the cores were 19.5% idle over the run (vmstat) and it
# took 16:06; at -n 5, 14:30 (on 2026-12-02, -n 3 took 18:09 and -n 4 14:15; -n 6, on a slower machine whose cores
# were busy already, was slower than -n 4). Each test file is kept whole in one process (its module fixtures start
# once; each process has its own service database and Redis database number). Files are handed out in collection
# order, the longest first (tests/conftest.py: LONGEST_FILES), not xdist's order by number of tests, which left the
# longest for last. The slowest tests and the seconds per file are listed at the end, with the CPU seconds each file
# used (the cores are what the run waits for): the place to look when the run grows.
exec .venv/bin/python -m pytest -q -p no:cacheprovider -n 5 --dist loadfile --no-loadscope-reorder --durations=15 "$@"

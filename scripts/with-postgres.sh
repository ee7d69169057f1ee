#!/usr/bin/env bash
# Runs COMMAND with a throwaway PostgreSQL cluster: created in a temporary folder (initdb), reached
# through a Unix socket in that folder only (no TCP port, trust authentication, nothing on the
# network), its URL exported as SPOTLINK_POSTGRES_URL; the cluster is stopped and removed when
# COMMAND ends, whether it passed, failed or was interrupted.
#
#   scripts/with-postgres.sh swift test --filter Postgres
#
# As root (CI), the server runs as the 'postgres' user, which PostgreSQL requires.
set -euo pipefail

[ "$#" -gt 0 ] || { echo "usage: scripts/with-postgres.sh COMMAND [ARGUMENT...]" >&2; exit 2; }

bin=""
if command -v initdb >/dev/null 2>&1; then
  bin="$(dirname "$(command -v initdb)")"
else
  for candidate in /usr/lib/postgresql/*/bin; do [ -x "$candidate/initdb" ] && bin="$candidate"; done
fi
[ -n "$bin" ] || { echo "with-postgres: no initdb; install the Debian package 'postgresql'" >&2; exit 3; }

folder="$(mktemp -d /tmp/spotlink-postgres.XXXXXX)"
run_as=()
if [ "$(id -u)" -eq 0 ]; then
  id postgres >/dev/null 2>&1 || { echo "with-postgres: running as root needs a 'postgres' user" >&2; exit 3; }
  chown postgres "$folder"
  run_as=(runuser -u postgres --)
fi

stop() {
  "${run_as[@]}" "$bin/pg_ctl" -D "$folder/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$folder"
}
trap stop EXIT INT TERM

"${run_as[@]}" "$bin/initdb" -D "$folder/data" -A trust -U spotlink --no-sync -E UTF8 >"$folder/initdb.log" 2>&1 \
  || { cat "$folder/initdb.log" >&2; exit 3; }
"${run_as[@]}" "$bin/pg_ctl" -D "$folder/data" -l "$folder/server.log" -w -t 60 \
  -o "-c listen_addresses='' -k $folder -c fsync=off -c max_connections=200" start >/dev/null \
  || { cat "$folder/server.log" >&2; exit 3; }

export SPOTLINK_POSTGRES_URL="postgres://spotlink@/postgres?host=$folder"
# The stores' default deadline per call (PostgresDeadline.default, 15 s) is for a server in use; a
# test suite under ThreadSanitizer, or beside another build on 2 cores, can keep a call waiting for
# the CPU longer than that. The deadline tests set their own.
export SPOTLINK_POSTGRES_DEADLINE="${SPOTLINK_POSTGRES_DEADLINE:-120}"
export SPOTLINK_POSTGRES_DATA="$folder/data"
export SPOTLINK_POSTGRES_BIN="$bin"
set +e
"$@"
status=$?
set -e
exit "$status"

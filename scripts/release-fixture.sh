#!/usr/bin/env bash
# Makes the upgrade fixture of one release (docs/releases.md): that release's own code, checked out into a
# temporary folder, runs its migrations and its demo club on a fresh PostgreSQL database, and the database
# is dumped as plain SQL (INSERT statements, so the embedded database can load it too).
#
#   scripts/release-fixture.sh COMMIT            (writes server/src/db/fixtures/release-COMMIT.sql)
#
# Needs pg_dump and a PostgreSQL server that FIXTURE_DATABASE_URL names (default: the test server).
set -euo pipefail
commit="$1"
root="$(cd "$(dirname "$0")/.." && pwd)"
admin_url="${FIXTURE_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
short="$(git -C "$root" rev-parse --short=7 "$commit")"
work="$(mktemp -d /tmp/enishi-release-XXXXXX)"
db="enishi_release_${short}_$$"
db_url="${admin_url%/*}/$db"
out="$root/server/src/db/fixtures/release-$short.sql"
cleanup() {
  psql -q "$admin_url" -c "DROP DATABASE IF EXISTS \"$db\" WITH (FORCE)" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

git -C "$root" archive "$commit" | tar -x -C "$work"
cd "$work"
# Only what the server's build needs: no install scripts (the browsers' and bundlers' binaries are not used).
npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
npm run build -w @enishi/contract >/dev/null
npm run build -w @enishi/server >/dev/null
psql -q "$admin_url" -c "CREATE DATABASE \"$db\"" >/dev/null
DATABASE_URL="$db_url" DATA_DIR="$work/data" node server/dist/scripts/demo.js >/dev/null
mkdir -p "$(dirname "$out")"
{
  echo "-- Upgrade fixture: release $short ($(git -C "$root" log -1 --format=%cs "$commit")), made by scripts/release-fixture.sh."
  pg_dump --inserts --no-owner --no-privileges --no-comments "$db_url" | grep -v -E '^(--|$|\\)'
} >"$out"
echo "$out: $(wc -c <"$out") bytes"

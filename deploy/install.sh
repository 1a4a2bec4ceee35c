#!/bin/sh
# Installs Enishi on a fresh Debian 12 or newer server, as root: docs/operations.md, "Installing on a fresh
# Debian server", step by step. Run it from the checkout at /opt/enishi (the release you want checked out);
# running it again installs the same files again and keeps the settings and secrets already made.
#
# The site's values, from the environment:
#   ENISHI_NAME            the server's name, e.g. enishi.example.jp (required the first time; then the one in
#                          PUBLIC_ORIGIN of /etc/enishi/enishi.env)
#   ENISHI_CERT            certbot (default: a certificate from Let's Encrypt through nginx's webroot; needs
#                          the name pointing at this server and ENISHI_EMAIL) or self-signed (a test server);
#                          unset when /etc/enishi/tls already holds a certificate: that one is kept
#   ENISHI_EMAIL           the address Let's Encrypt writes to about the certificate
#   ENISHI_OWNER_ID        the first owner's login ID (default owner)
#   ENISHI_OWNER_PASSWORD  the first owner's password (letters, digits and . ? / -, 8 to 24; default: made
#                          here and printed once)
#   ENISHI_DB_PASSWORD     the enishi database user's password (default: made here, or the one already in
#                          /etc/enishi/enishi.env)
#   ENISHI_BACKUP_RECIPIENTS  the age public key(s) backups are encrypted to (`age-keygen` on another machine;
#                          comma-separated). Default: a key pair made here, its identity in
#                          /root/enishi-backup-identity.txt, to be copied off this server (docs/operations.md,
#                          "Backups")
#   ENISHI_NODE_TARBALL    a Node.js tarball (bin/node inside) to use instead of NodeSource's nodejs package;
#   ENISHI_NPM_TARBALL     with it, npm's own package (`npm pack npm@11`) when the tarball carries no npm
set -eu

APP=/opt/enishi
ENV_FILE=/etc/enishi/enishi.env
NODE_MAJOR=24
INSTANCES="8081 8082"

say() { printf '\n== install: %s\n' "$*"; }
fail() {
    echo "install: $*" >&2
    exit 1
}
have_systemd() { [ -d /run/systemd/system ]; }

[ "$(id -u)" = 0 ] || fail "run as root"
here=$(cd "$(dirname "$0")/.." && pwd)
[ "$here" = "$APP" ] || fail "run the copy in $APP (git clone <repository> $APP; git -C $APP checkout <release>), not $here"
# Run again (an upgrade), the name is the one in the settings, and the certificate in place is kept.
name=${ENISHI_NAME:-$(sed -n 's#^PUBLIC_ORIGIN=https://##p' "$ENV_FILE" 2>/dev/null | tail -n 1)}
[ -n "$name" ] || fail "ENISHI_NAME (the server name, e.g. enishi.example.jp) is not set"
cert=${ENISHI_CERT:-certbot}
[ -n "${ENISHI_CERT:-}" ] || [ ! -s /etc/enishi/tls/fullchain.pem ] || cert=keep
case "$cert" in
certbot) : "${ENISHI_EMAIL:?ENISHI_EMAIL (for Let's Encrypt) is not set; or ENISHI_CERT=self-signed}" ;;
self-signed | keep) ;;
*) fail "ENISHI_CERT must be certbot or self-signed, not $cert" ;;
esac
. /etc/os-release
[ "${ID:-}" = debian ] && [ "${VERSION_ID:-0}" -ge 12 ] || fail "Debian 12 or newer is needed (this is ${PRETTY_NAME:-unknown})"

say "1. packages"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q nginx postgresql redis-server coturn certbot git ca-certificates openssl curl gnupg adduser age

say "1b. Node.js $NODE_MAJOR"
if [ -n "${ENISHI_NODE_TARBALL:-}" ]; then
    # The unit runs /usr/bin/node, as Debian's and NodeSource's packages place it.
    rm -rf /usr/local/lib/enishi-node && install -d /usr/local/lib/enishi-node
    tar -xf "$ENISHI_NODE_TARBALL" -C /usr/local/lib/enishi-node --strip-components=1
    if [ ! -e /usr/local/lib/enishi-node/lib/node_modules/npm ]; then
        [ -n "${ENISHI_NPM_TARBALL:-}" ] || fail "$ENISHI_NODE_TARBALL carries no npm: set ENISHI_NPM_TARBALL"
        install -d /usr/local/lib/enishi-node/lib/node_modules/npm
        tar -xf "$ENISHI_NPM_TARBALL" -C /usr/local/lib/enishi-node/lib/node_modules/npm --strip-components=1
    fi
    ln -sfn /usr/local/lib/enishi-node/bin/node /usr/bin/node
    ln -sfn /usr/local/lib/enishi-node/lib/node_modules/npm/bin/npm-cli.js /usr/bin/npm
    ln -sfn /usr/local/lib/enishi-node/lib/node_modules/npm/bin/npx-cli.js /usr/bin/npx
elif ! node -e "process.exit(Number(process.versions.node.split('.')[0]) >= $NODE_MAJOR ? 0 : 1)" 2>/dev/null; then
    # NodeSource's repository for Node.js 24 LTS (Debian 12 ships 18, Debian 13 ships 20).
    install -d -m 0755 /etc/apt/keyrings
    curl -fsSL https://deb.nodesource.com/gpgkey/nodesource-repo.gpg.key |
        gpg --dearmor --yes -o /etc/apt/keyrings/nodesource.gpg
    echo "deb [signed-by=/etc/apt/keyrings/nodesource.gpg] https://deb.nodesource.com/node_$NODE_MAJOR.x nodistro main" \
        >/etc/apt/sources.list.d/nodesource.list
    apt-get update -q
    apt-get install -y -q nodejs
fi
echo "node $(node --version), npm $(npm --version)"

say "2. the enishi user and its folders"
id enishi >/dev/null 2>&1 || adduser --system --group --home "$APP" --no-create-home enishi
install -d -o enishi -g enishi -m 0750 /var/lib/enishi /var/backups/enishi
# coturn (user turnserver) reads its file and the certificate under /etc/enishi; enishi.env stays 0640.
install -d -o root -g root -m 0755 /etc/enishi

say "3. the app ($(git -C "$APP" describe --always --dirty 2>/dev/null || echo 'not a git checkout'))"
cd "$APP"
npm ci --no-audit --no-fund
npm run build
chown -R root:root "$APP" # the service reads it, never writes it

say "4. PostgreSQL"
if have_systemd; then
    systemctl enable --now postgresql redis-server
else
    # A container without systemd (the drill): Debian's own commands.
    pg_lsclusters -h | while read -r ver cluster _; do pg_ctlcluster "$ver" "$cluster" status >/dev/null || pg_ctlcluster "$ver" "$cluster" start; done
fi
db_password=${ENISHI_DB_PASSWORD:-}
if [ -z "$db_password" ] && [ -r "$ENV_FILE" ]; then
    db_password=$(sed -n 's#^DATABASE_URL=postgres://enishi:\([^@]*\)@.*#\1#p' "$ENV_FILE" | tail -n 1)
fi
[ -n "$db_password" ] || db_password=$(openssl rand -hex 24)
case "$db_password" in *[!A-Za-z0-9._~-]*) fail "ENISHI_DB_PASSWORD: use letters, digits and . _ ~ - only (it goes into a URL)" ;; esac
psql_q() { runuser -u postgres -- psql -X -q -v ON_ERROR_STOP=1 "$@"; }
[ "$(psql_q -tA -c "select 1 from pg_roles where rolname = 'enishi'")" = 1 ] || runuser -u postgres -- createuser enishi
psql_q -c "alter user enishi password '$db_password'"
[ "$(psql_q -tA -c "select 1 from pg_database where datname = 'enishi'")" = 1 ] || runuser -u postgres -- createdb -O enishi enishi

say "5. settings ($ENV_FILE)"
if [ -e "$ENV_FILE" ]; then
    echo "kept: $ENV_FILE already exists (its secrets stay as they are)"
    # Only the database password follows ENISHI_DB_PASSWORD, which was just set in PostgreSQL.
    sed -i "s#^DATABASE_URL=postgres://enishi:[^@]*@#DATABASE_URL=postgres://enishi:$db_password@#" "$ENV_FILE"
else
    owner_password=${ENISHI_OWNER_PASSWORD:-$(openssl rand -hex 10)}
    vapid=$(node "$APP/node_modules/web-push/src/cli.js" generate-vapid-keys --json)
    # The server refuses daily backups without a recipient (BACKUP_DIR is set in the example).
    recipients=${ENISHI_BACKUP_RECIPIENTS:-}
    if [ -z "$recipients" ]; then
        identity=/root/enishi-backup-identity.txt
        [ -e "$identity" ] || (umask 077 && age-keygen -o "$identity" 2>/dev/null)
        recipients=$(age-keygen -y "$identity")
        echo "backups are encrypted to $recipients; its identity is $identity: copy it off this server and delete it here (without it no backup can be read)"
    fi
    tmp=$(mktemp /etc/enishi/.enishi.env.XXXXXX)
    # deploy/enishi.env.example with this site's values in place of its examples.
    VAPID="$vapid" \
        SITE_PUBLIC_ORIGIN="https://$name" \
        SITE_DATABASE_URL="postgres://enishi:$db_password@127.0.0.1:5432/enishi" \
        SITE_OWNER_ID="${ENISHI_OWNER_ID:-owner}" \
        SITE_OWNER_PASSWORD="$owner_password" \
        SITE_VAPID_SUBJECT="mailto:${ENISHI_EMAIL:-office@$name}" \
        SITE_TURN_SECRET="$(openssl rand -base64 32)" \
        SITE_METRICS_TOKEN="$(openssl rand -base64 32)" \
        SITE_BACKUP_RECIPIENTS="$recipients" \
        SITE_ICE_SERVERS="[{\"urls\":[\"stun:$name:3478\",\"turn:$name:3478?transport=udp\",\"turn:$name:3478?transport=tcp\",\"turns:$name:5349?transport=tcp\"]}]" \
        node -e '
          const fs = require("node:fs");
          const vapid = JSON.parse(process.env.VAPID);
          process.env.SITE_VAPID_PUBLIC_KEY = vapid.publicKey;
          process.env.SITE_VAPID_PRIVATE_KEY = vapid.privateKey;
          const lines = fs.readFileSync(process.argv[1], "utf8").split("\n").map((line) => {
            const key = /^([A-Z0-9_]+)=/.exec(line)?.[1];
            const value = key && process.env["SITE_" + key];
            return value === undefined ? line : `${key}=${value}`;
          });
          fs.writeFileSync(process.argv[2], lines.join("\n"));
        ' "$APP/deploy/enishi.env.example" "$tmp"
    chown root:enishi "$tmp" && chmod 0640 "$tmp" && mv "$tmp" "$ENV_FILE"
    [ -n "${ENISHI_OWNER_PASSWORD:-}" ] || echo "the first owner: ${ENISHI_OWNER_ID:-owner} / $owner_password (change it after the first login)"
fi

say "6. nginx, coturn and the certificate (deploy/install-edge.sh)"
ENISHI_NAME="$name" sh "$APP/deploy/install-edge.sh"
if [ "$cert" = certbot ]; then
    have_systemd || fail "certbot needs nginx running to answer on port 80"
    certbot certonly --webroot -w /var/www/enishi-acme -d "$name" --non-interactive --agree-tos -m "$ENISHI_EMAIL" --keep-until-expiring
    RENEWED_LINEAGE="/etc/letsencrypt/live/$name" /etc/letsencrypt/renewal-hooks/deploy/enishi.sh
fi

say "7. the instances ($INSTANCES)"
install -m 0644 -o root -g root "$APP/deploy/systemd/enishi@.service" /etc/systemd/system/enishi@.service
if have_systemd; then
    systemctl daemon-reload
    # The first alone: it runs the migrations of a new database and makes the owner.
    for port in $INSTANCES; do
        systemctl enable --now "enishi@$port"
        tries=0
        until curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1; do
            tries=$((tries + 1))
            [ "$tries" -le 60 ] || fail "enishi@$port is not ready after 60 s: journalctl -u enishi@$port"
            sleep 1
        done
        echo "enishi@$port ready"
    done
    say "8. check"
    insecure= # a self-signed certificate is trusted by no one: curl is told not to check it
    tls=/etc/enishi/tls/fullchain.pem
    openssl verify -untrusted "$tls" "$tls" >/dev/null 2>&1 || insecure=--insecure
    curl -fsS $insecure --resolve "$name:443:127.0.0.1" "https://$name/readyz" || fail "https://$name/readyz through nginx failed"
    echo
else
    echo "no systemd here: start postgresql, redis-server, enishi-coturn, nginx and enishi@$(echo "$INSTANCES" | tr ' ' ',') by their units' lines"
fi
say "done: open https://$name/ and log in as the owner; then open the firewall (docs/operations.md, \"Installing on a fresh Debian server\")"

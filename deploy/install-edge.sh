#!/bin/sh
# The edge of an Enishi server: nginx, coturn and the certificate's fixed place, installed from this checkout's
# deploy/ folder exactly as shipped (docs/operations.md, "nginx, coturn and certificates"), and two of nginx's
# limits raised in Debian's nginx.conf (docs/operations.md, "nginx's limits"). Run as root, after
# /etc/enishi/enishi.env holds TURN_SECRET, with Debian's nginx, coturn and openssl installed. Running it again
# installs the same files again and makes coturn's secret TURN_SECRET again.
#
# ENISHI_NAME (default: this machine's name) is only the name in the self-signed certificate made when there is
# no certificate yet; certbot's (docs/operations.md, "Certificates") replaces it through the deploy hook.
# Under systemd it also (re)starts nginx and enishi-coturn; without systemd (a container, the drill) the caller
# starts them with the units' own lines.
set -eu

deploy=$(cd "$(dirname "$0")" && pwd)
name=${ENISHI_NAME:-$(hostname -f 2>/dev/null || hostname)}

fail() {
    echo "install-edge: $*" >&2
    exit 1
}
[ "$(id -u)" = 0 ] || fail "run as root"
for tool in nginx turnserver turnadmin openssl; do
    command -v "$tool" >/dev/null || fail "$tool is missing (apt-get install -y nginx coturn openssl)"
done
getent group turnserver >/dev/null || fail "no turnserver group (Debian's coturn package makes it)"
[ -r /etc/enishi/enishi.env ] || fail "/etc/enishi/enishi.env is missing"
secret=$(sed -n 's/^TURN_SECRET=//p' /etc/enishi/enishi.env | tail -n 1)
[ ${#secret} -ge 16 ] || fail "TURN_SECRET in /etc/enishi/enishi.env is missing or shorter than 16 characters"

# Folders: coturn (user turnserver) reaches its file and the certificate under /etc/enishi; every secret in
# /etc/enishi has its own mode (enishi.env 0640 root:enishi).
install -d -m 0755 -o root -g root /etc/enishi
install -d -m 0750 -o root -g turnserver /etc/enishi/tls
install -d -m 0755 -o root -g root /var/www/enishi-acme

# A certificate at the fixed paths, so nginx and coturn start before certbot has run.
if [ ! -s /etc/enishi/tls/fullchain.pem ] || [ ! -s /etc/enishi/tls/privkey.pem ]; then
    openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=$name" -addext "subjectAltName=DNS:$name" \
        -keyout /etc/enishi/tls/privkey.pem -out /etc/enishi/tls/fullchain.pem 2>/dev/null
fi
chown root:turnserver /etc/enishi/tls/fullchain.pem /etc/enishi/tls/privkey.pem
chmod 0644 /etc/enishi/tls/fullchain.pem
chmod 0640 /etc/enishi/tls/privkey.pem

# nginx's own limits (docs/capacity.md, "What runs out first"). A chat socket holds two connections in nginx (the
# phone's and the one to the instance), each an open file. Debian's nginx.conf allows 768 connections a worker (one
# worker a core) and, under systemd, 1,024 open files: about 768 sockets on 2 cores. Raised to 16,384 connections a
# worker (8,192 sockets; 16,384 on 2 cores, which share them about evenly) and 20,000 files (the connections, the
# logs, a large response's temporary file). 20,000 is no more than the hard limit nginx starts under, on a server
# (systemd's 524,288) or in CI's containers (20,000), so setting it needs no CAP_SYS_RESOURCE, which containers lack.
# worker_connections has one place, the events block of nginx.conf, so both are set there: raised in place, never
# lowered (an operator's larger value stays), added when missing. worker_rlimit_nofile could be a file of
# modules-enabled/ (included at nginx.conf's top level), but that folder is Debian's module packages', and a second
# worker_rlimit_nofile anywhere is an error. When nginx -t fails, nginx.conf and the sites below are put back as
# they were, so that nginx still starts and reloads with its former configuration.
connections=16384
files=20000
conf=/etc/nginx/nginx.conf
sites="sites-available/enishi sites-enabled/enishi sites-enabled/default"
before=$(mktemp)
edited=$(mktemp)
saved=$(mktemp -d)
trap 'rm -rf "$before" "$edited" "$saved"' EXIT
cp "$conf" "$before"
for site in $sites; do
    if [ -e "/etc/nginx/$site" ] || [ -L "/etc/nginx/$site" ]; then
        mkdir -p "$saved/$(dirname "$site")"
        cp -Pp "/etc/nginx/$site" "$saved/$site"
    fi
done
nginx_failed() {
    cat "$before" >"$conf"
    for site in $sites; do
        rm -f "/etc/nginx/$site"
        if [ -e "$saved/$site" ] || [ -L "$saved/$site" ]; then cp -Pp "$saved/$site" "/etc/nginx/$site"; fi
    done
    fail "$* (nginx.conf and the sites left as they were)"
}
# at_least NAME VALUE: each `NAME n;` line of nginx.conf with n under VALUE says VALUE; false when there is none.
at_least() {
    awk -v name="$1" -v want="$2" -v out="$edited" '
        $1 == name && $2 ~ /^[0-9]+;$/ {
            found = 1
            have = $2 + 0
            if (have < want) {
                sub(/[0-9]+;/, want ";")
                print "install-edge: nginx.conf: " name " " have " raised to " want
            } else print "install-edge: nginx.conf: " name " " have " kept (at least " want ")"
        }
        { print > out }
        END { exit !found }' "$conf" || return 1
    cmp -s "$edited" "$conf" || cat "$edited" >"$conf"
}
# add NAME VALUE before|after: the line `NAME VALUE;` just before nginx.conf's `events {` line (top level) or
# just after it (in the block).
add() {
    awk -v line="$1 $2;" -v where="$3" -v out="$edited" '
        !done && /^[ \t]*events[ \t]*\{[ \t]*$/ {
            done = 1
            if (where == "before") print "# Added by Enishi (deploy/install-edge.sh; docs/operations.md)\n" line > out
            print > out
            if (where == "after") print "\t" line > out
            next
        }
        { print > out }
        END { exit !done }' "$conf" || nginx_failed "no 'events {' line in $conf to put $1 by"
    cat "$edited" >"$conf"
    echo "install-edge: nginx.conf: $1 $2 added"
}
at_least worker_connections "$connections" || add worker_connections "$connections" after
at_least worker_rlimit_nofile "$files" || add worker_rlimit_nofile "$files" before

# nginx: the site answers every name; Debian's default site would also claim port 80.
install -m 0644 -o root -g root "$deploy/nginx/enishi.conf" /etc/nginx/sites-available/enishi
ln -sfn ../sites-available/enishi /etc/nginx/sites-enabled/enishi
rm -f /etc/nginx/sites-enabled/default
nginx -t -q || nginx_failed "nginx -t failed"

# certbot's deploy hook (copies each renewal to /etc/enishi/tls and reloads nginx and coturn).
install -d -m 0755 /etc/letsencrypt/renewal-hooks/deploy
install -m 0755 -o root -g root "$deploy/certbot/enishi-deploy-hook.sh" /etc/letsencrypt/renewal-hooks/deploy/enishi.sh

# coturn: its file and unit as shipped; the secret in its own database, written as turnserver.
install -m 0644 -o root -g root "$deploy/coturn/turnserver.conf" /etc/enishi/turnserver.conf
install -m 0644 -o root -g root "$deploy/systemd/enishi-coturn.service" /etc/systemd/system/enishi-coturn.service
install -d -m 0700 -o turnserver -g turnserver /var/lib/enishi-coturn
db=/var/lib/enishi-coturn/turndb
runuser -u turnserver -- turnadmin --delete-all-secrets --realm=enishi --db="$db" >/dev/null
runuser -u turnserver -- turnadmin --set-secret="$secret" --realm=enishi --db="$db" >/dev/null
[ "$(runuser -u turnserver -- turnadmin --show-secret --realm=enishi --db="$db" | grep -c '\[enishi\]')" = 1 ] ||
    fail "coturn's database did not take the secret"

if [ -d /run/systemd/system ]; then
    systemctl daemon-reload
    systemctl disable --now coturn 2>/dev/null || true
    systemctl enable enishi-coturn
    systemctl restart enishi-coturn
    systemctl enable nginx
    systemctl reload-or-restart nginx
fi
echo "install-edge: nginx site, coturn and certificate hook installed"

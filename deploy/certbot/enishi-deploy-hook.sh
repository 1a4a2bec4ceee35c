#!/bin/sh
# certbot's deploy hook for Enishi: install as /etc/letsencrypt/renewal-hooks/deploy/enishi.sh (root, 0755).
# certbot runs it after every renewal with RENEWED_LINEAGE=/etc/letsencrypt/live/<name>; run it once by hand
# after the first `certbot certonly` the same way. It copies the certificate to the fixed paths nginx and
# coturn read (/etc/enishi/tls/, the key readable by the turnserver group), then has both load it: nginx
# reloads (as Debian's nginx.service does), coturn re-reads it on SIGUSR2 (calls in progress stay up).
# docs/operations.md, "Certificates".
set -eu

TLS_DIR=/etc/enishi/tls
: "${RENEWED_LINEAGE:?RENEWED_LINEAGE (the certificate folder, /etc/letsencrypt/live/<name>) is not set}"

# Copied next to the old files, then renamed over them: a reader never sees half a certificate.
install -m 0644 -o root -g turnserver "$RENEWED_LINEAGE/fullchain.pem" "$TLS_DIR/.fullchain.pem.new"
install -m 0640 -o root -g turnserver "$RENEWED_LINEAGE/privkey.pem" "$TLS_DIR/.privkey.pem.new"
mv -f "$TLS_DIR/.fullchain.pem.new" "$TLS_DIR/fullchain.pem"
mv -f "$TLS_DIR/.privkey.pem.new" "$TLS_DIR/privkey.pem"

nginx -t -q
nginx -s reload

pid_file=/run/enishi-coturn/turnserver.pid
if [ -s "$pid_file" ]; then
    kill -USR2 "$(cat "$pid_file")"
fi
echo "enishi: certificate from $RENEWED_LINEAGE installed; nginx reloaded; coturn told to reload"

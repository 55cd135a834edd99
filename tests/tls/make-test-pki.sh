#!/usr/bin/env bash
# A throwaway certificate authority and certificates for the TLS tests (web and IIOP):
#   ca.pem ca.key            the test CA (P-256, 2 days)
#   server.pem server.key    CN=localhost, SAN localhost, 127.0.0.1, ::1; server.pem
#                            holds the full chain (leaf then CA), as --tls-cert expects
#   client.pem client.key    CN=test-instructor, for client-certificate tests
#   other-ca.pem             a second CA that signed nothing here (a wrong trust anchor)
# Usage: make-test-pki.sh DIR   (DIR is created; existing files are replaced)
set -euo pipefail
dir=${1:?usage: make-test-pki.sh DIR}
mkdir -p "$dir"
cd "$dir"
days=2
key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }

key ca.key
openssl req -x509 -new -key ca.key -sha256 -days "$days" -subj "/CN=clamsim test CA" \
  -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
  -out ca.pem 2>/dev/null

leaf() {  # leaf NAME CN EXTENSIONS
  key "$1.key"
  openssl req -new -key "$1.key" -subj "/CN=$2" -out "$1.csr" 2>/dev/null
  printf '%s\n' "$3" >"$1.ext"
  openssl x509 -req -in "$1.csr" -CA ca.pem -CAkey ca.key -CAcreateserial -sha256 \
    -days "$days" -extfile "$1.ext" -out "$1.leaf.pem" 2>/dev/null
  cat "$1.leaf.pem" ca.pem >"$1.pem"
  rm -f "$1.csr" "$1.ext" "$1.leaf.pem"
}
leaf server localhost "basicConstraints=CA:FALSE
keyUsage=critical,digitalSignature
extendedKeyUsage=serverAuth
subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1"
leaf client test-instructor "basicConstraints=CA:FALSE
keyUsage=critical,digitalSignature
extendedKeyUsage=clientAuth"

key other-ca.key
openssl req -x509 -new -key other-ca.key -sha256 -days "$days" -subj "/CN=another CA" \
  -addext "basicConstraints=critical,CA:TRUE" -out other-ca.pem 2>/dev/null
rm -f other-ca.key ca.srl
chmod 600 ./*.key

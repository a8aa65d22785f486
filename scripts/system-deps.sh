#!/usr/bin/env bash
# The Debian packages the test suite drives for real (docs/testing.md): token middleware, pcscd with the
# virtual reader, the Secret Service, Chromium and the independent validators.
#   system-deps.sh check    exit 1 naming what is missing
#   system-deps.sh install  apt-get install what is missing (root)
set -euo pipefail
packages=(
  softhsm2 opensc opensc-pkcs11 gnutls-bin libnss3-tools p11-kit p11-kit-modules libengine-pkcs11-openssl
  pcscd libpcsclite-dev pcsc-tools vsmartcard-vpcd
  gnome-keyring dbus dbus-x11 libsecret-tools
  chromium poppler-utils qpdf xmlsec1 openssl default-jdk-headless libbcprov-java libbcpkix-java libbcutil-java
  iproute2 util-linux
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0
case "${1:-check}" in
  install)
    if [[ $EUID -ne 0 ]]; then
      echo "system-deps: installing needs root: sudo bash scripts/system-deps.sh install" >&2
      exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}"
    ;;
  *)
    echo "system-deps: missing Debian packages: ${missing[*]}" >&2
    echo "system-deps: install them with: sudo bash scripts/system-deps.sh install" >&2
    exit 1
    ;;
esac

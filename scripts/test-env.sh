#!/usr/bin/env bash
# Runs a command the way the test suite needs the machine: in a private network and mount namespace (its own
# loopback with quickack, so nothing leaves the machine and APDU round trips are fast; its own /run/pcscd, so the
# suite's pcscd never meets the host's), with a throwaway HOME, a private session bus and an unlocked
# gnome-keyring answering the Secret Service API.
set -euo pipefail
if [[ -z "${SIGNING_STATION_TEST_NAMESPACE:-}" ]]; then
  export SIGNING_STATION_TEST_NAMESPACE=1
  userns=()
  [[ $EUID -ne 0 ]] && userns=(--map-root-user)
  exec unshare "${userns[@]}" --mount --net --propagation private -- bash "$0" "$@"
fi

ip link set lo up
for dst in 127.0.0.0/8 127.0.0.1; do
  ip route change local "$dst" dev lo proto kernel scope host src 127.0.0.1 table local quickack 1
done
mkdir -p /run/pcscd
mount -t tmpfs -o mode=755 tmpfs /run/pcscd

scratch=$(mktemp -d /tmp/signing-station-test.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
export HOME=$scratch/home XDG_RUNTIME_DIR=$scratch/run XDG_DATA_HOME=$scratch/home/.local/share
mkdir -p "$HOME" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"

dbus-run-session -- bash -c '
  set -euo pipefail
  echo -n signing-station-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null
  for _ in $(seq 100); do
    dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
      org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q "boolean true" && break
    sleep 0.05
  done
  "$@"
' bash "$@"

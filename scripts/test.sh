#!/usr/bin/env bash
# npm test: every test, against the real parts. Installs missing Debian packages when run as root (otherwise
# names them), typechecks, lints (layers, import cycles), builds, then runs vitest inside the test environment (scripts/test-env.sh).
# Extra arguments go to vitest, e.g. `npm test -- test/station/http`.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ $EUID -eq 0 ]]; then
  bash scripts/system-deps.sh install
else
  bash scripts/system-deps.sh check
fi
npm run --silent typecheck
npm run --silent lint
npm run --silent build
exec bash scripts/test-env.sh npx --no-install vitest run --reporter=default --reporter=./test/support/summary-reporter.ts "$@"

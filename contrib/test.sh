#!/usr/bin/env bash
# The test command (README, CI): installs what the tests need on Debian 12 (FFmpeg/SDL2/libpulse dev
# packages, PulseAudio, Xvfb, the ffmpeg CLI for fixtures), then builds once and runs every test.
# Tests start their own private PulseAudio servers and use SDL's offscreen driver; nothing here needs a
# display or a sound card.
set -euo pipefail
cd "$(dirname "$0")/.."
bash contrib/setup.sh
export QUEUED_FIXTURE_DIR="${QUEUED_FIXTURE_DIR:-/tmp/queued-fixtures-$(id -u)}"
swift build --build-tests
# The four programs built again with the Swift runtime inside, in their own scratch (.build/static-debug;
# sharing .build/debug broke the next run's build): the install and package tests install these, as
# contrib/install.sh would install its release build.
bash contrib/install.sh --configuration debug --build-only
# One at a time: real-time tests measure timing and must not share 2 cores with untimed ones.
# The whole log is long and CI may show only part of it, so a failing run repeats its failures last.
log="$(mktemp /tmp/queued-test-log.XXXXXX)"
status=0
swift test --skip-build --no-parallel "$@" 2>&1 | tee "$log" || status=$?
if [ "$status" -ne 0 ]; then
  echo "---- failures (repeated from above) ----"
  grep -E '✘|Fatal error|\*\*\* Signal|Program crashed' "$log" | head -n 80 || true
fi
rm -f "$log"
exit "$status"

#!/usr/bin/env bash
# queued's control socket by hand, with socat: newline-delimited JSON-RPC 2.0 on a Unix stream socket
# (Protocol/README.md). Each command below is one socat line to copy into your own scripts; queuectl does
# all of this better for everyday use. Needs socat (Debian: apt-get install socat).
#
#   contrib/examples/socat.sh status                 # player.status
#   contrib/examples/socat.sh info                   # daemon.info
#   contrib/examples/socat.sh add FILE…              # queue.add (paths made absolute here)
#   contrib/examples/socat.sh play [ID] | pause | next | ls | volume N
#   contrib/examples/socat.sh call METHOD [PARAMS]   # any method; PARAMS is JSON (object or array)
#   contrib/examples/socat.sh discover > api.json    # rpc.discover: the OpenRPC document
#   contrib/examples/socat.sh subscribe [EVENT…]     # events.subscribe, then raw lines until Ctrl-C
#   contrib/examples/socat.sh watch                  # item starts/ends as they happen, events only
#
# The socket: $QUEUED_SOCKET, else $XDG_RUNTIME_DIR/queued/queued.sock (as the daemon and queuectl); without
# XDG_RUNTIME_DIR (cron) this script guesses /run/user/UID, where a systemd user service's daemon listens.
set -euo pipefail
SOCK="${QUEUED_SOCKET:-${XDG_RUNTIME_DIR:-/run/user/$(id -u)}/queued/queued.sock}"

# One request, one answer: socat sends the line, half-closes its side, and waits up to 2 s for the answer.
rpc() { printf '%s\n' "$1" | socat -t 2 - "UNIX-CONNECT:$SOCK"; }

# A subscription: shut-none keeps the connection fully open after the request, so notifications keep
# arriving (-t: wait "forever" once the request has been sent). Ctrl-C ends it, and the subscription with it.
stream() { printf '%s\n' "$1" | socat -t 1000000000 - "UNIX-CONNECT:$SOCK,shut-none"; }

# A JSON string from a shell word (escapes backslashes and double quotes; enough for file names).
json_string() { local s=${1//\\/\\\\}; s=${s//\"/\\\"}; printf '"%s"' "$s"; }

[[ -S "$SOCK" ]] || { echo "socat.sh: no socket at $SOCK (is queued running?)" >&2; exit 3; }
command="${1:-status}"; shift || true
case "$command" in
  status)   rpc '{"jsonrpc":"2.0","id":1,"method":"player.status"}' ;;
  info)     rpc '{"jsonrpc":"2.0","id":1,"method":"daemon.info"}' ;;
  pause)    rpc '{"jsonrpc":"2.0","id":1,"method":"player.pause"}' ;;
  next)     rpc '{"jsonrpc":"2.0","id":1,"method":"player.next"}' ;;
  ls)       rpc '{"jsonrpc":"2.0","id":1,"method":"queue.list"}' ;;
  discover) rpc '{"jsonrpc":"2.0","id":1,"method":"rpc.discover"}' ;;
  play)     rpc "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"player.play\"${1:+,\"params\":{\"id\":$1\}}}" ;;
  volume)   rpc "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"player.set\",\"params\":{\"volume\":${1:?volume N}}}" ;;
  add)
    (( $# )) || { echo "usage: socat.sh add FILE…" >&2; exit 2; }
    items=""
    for f in "$@"; do items+="${items:+,}$(json_string "$(realpath -m -- "$f")")"; done
    rpc "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"queue.add\",\"params\":{\"items\":[$items]}}" ;;
  call)
    method="${1:?usage: socat.sh call METHOD [PARAMS]}"
    rpc "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":$(json_string "$method")${2:+,\"params\":$2}}" ;;
  subscribe)
    events=""
    for e in "$@"; do events+="${events:+,}$(json_string "$e")"; done
    stream "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"events.subscribe\"${events:+,\"params\":{\"events\":[$events]\}}}" ;;
  watch)
    stream '{"jsonrpc":"2.0","id":1,"method":"events.subscribe","params":{"events":["itemStarted","itemEnded"]}}' \
      | grep --line-buffered '"method"' ;;
  *) echo "socat.sh: unknown command $command (see the comment at the top)" >&2; exit 2 ;;
esac

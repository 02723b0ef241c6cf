# Shell helpers for contrib/bench/run.sh: child-process bookkeeping, private Xvfb and PulseAudio
# servers, timed runs (GNU time), results file. Sourced, not run. Needs: $WORK (scratch dir),
# $RESULTS (key=value file).

BG_PIDS=()          # every background child we start; killed (by pid) at exit

log() { printf '[bench %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

# put KEY VALUE: record a figure for the summary (report.py reads $RESULTS).
put() { printf '%s=%s\n' "$1" "$2" >>"$RESULTS"; }

# bg CMD...: start CMD in the background, remember its pid in $BG_PID and in BG_PIDS.
bg() {
  "$@" &
  BG_PID=$!
  BG_PIDS+=("$BG_PID")
}

# alive PID: the process exists and is not a zombie (kill -0 succeeds on unreaped children).
alive() {
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  stat=${stat##*) }
  [[ "${stat:0:1}" != Z ]]
}

# waitfor CMD...: run CMD as a tracked background child and wait for it, so that a signal to this
# script runs its trap at once (bash defers traps while a foreground command runs) and cleanup
# stops the child. Returns CMD's status.
waitfor() {
  local pid rc
  "$@" &
  pid=$!
  BG_PIDS+=("$pid")
  wait "$pid"
  rc=$?
  forget_pid "$pid"
  return "$rc"
}

# stop_pid PID [SIGNAL]: stop one child we started: SIGNAL (default TERM), up to 8 s (longer than
# the 5 s of timeout -k) for it to go, then SIGKILL. A child that leads its own process group
# (timeout does: setpgid) is signalled as a group, so the player under it goes too even if timeout
# has already exited; such a group id cannot belong to anyone else while the group exists.
stop_pid() {
  local pid=$1 sig=${2:-TERM} i group=
  kill -0 -- "-$pid" 2>/dev/null && group=1
  if alive "$pid" || [[ -n "$group" ]]; then
    kill -"$sig" "$pid" 2>/dev/null
    [[ -n "$group" ]] && kill -"$sig" -- "-$pid" 2>/dev/null
    for i in $(seq 80); do
      alive "$pid" || { [[ -n "$group" ]] && kill -0 -- "-$pid" 2>/dev/null; } || break
      sleep 0.1
    done
    alive "$pid" && kill -KILL "$pid" 2>/dev/null
    [[ -n "$group" ]] && kill -KILL -- "-$pid" 2>/dev/null
  fi
  wait "$pid" 2>/dev/null
  forget_pid "$pid"
}

# forget_pid PID: drop a reaped child from BG_PIDS (its number may be reused by someone else).
forget_pid() {
  local kept=() p
  for p in "${BG_PIDS[@]}"; do [[ "$p" == "$1" ]] || kept+=("$p"); done
  BG_PIDS=("${kept[@]}")
}

cleanup() {
  local i
  trap - EXIT INT TERM
  for ((i = ${#BG_PIDS[@]} - 1; i >= 0; i--)); do stop_pid "${BG_PIDS[i]}"; done  # newest first: servers last
  [[ -n "${KEEP_WORK:-}" ]] || rm -rf "$WORK"
}

# start_xvfb: a private X server on a free display (Xvfb -displayfd picks it); sets DISPLAY_NUM.
# Screen 1280x720: windows of that size sit at 0,0, so x11grab of the screen is the video.
start_xvfb() {
  local fdfile="$WORK/xvfb.display" i
  : >"$fdfile"
  bg Xvfb -displayfd 9 -screen 0 1280x720x24 -nolisten tcp -noreset 9>"$fdfile" 2>"$WORK/xvfb.log"
  XVFB_PID=$BG_PID
  for i in $(seq 100); do [[ -s "$fdfile" ]] && break; sleep 0.1; done
  DISPLAY_NUM=$(tr -dc 0-9 <"$fdfile")
  [[ -n "$DISPLAY_NUM" ]] || { cat "$WORK/xvfb.log" >&2; log "Xvfb did not start"; return 1; }
  log "Xvfb on :$DISPLAY_NUM"
}

# start_pulse: a private PulseAudio server with a null sink (norewinds=1 so the monitor records
# exactly what was rendered); sets PULSE (server string for clients).
start_pulse() {
  local dir="$WORK/pulse" i
  mkdir -p "$dir"
  bg env HOME="$dir" XDG_RUNTIME_DIR="$dir" pulseaudio -n --daemonize=no --exit-idle-time=-1 \
    --use-pid-file=no --disallow-exit \
    -L "module-native-protocol-unix socket=$dir/native auth-anonymous=1" \
    -L "module-null-sink sink_name=null rate=48000 channels=2 norewinds=1" >"$WORK/pulse.log" 2>&1
  PULSE_PID=$BG_PID
  PULSE="unix:$dir/native"
  for i in $(seq 100); do
    timeout 2 pactl --server="$PULSE" info >/dev/null 2>&1 && break
    sleep 0.1
  done
  timeout 2 pactl --server="$PULSE" info >/dev/null 2>&1 || { cat "$WORK/pulse.log" >&2; log "PulseAudio did not start"; return 1; }
  timeout 2 pactl --server="$PULSE" set-default-sink null
  log "PulseAudio at $PULSE"
}

# timed LABEL LIMIT CMD...: run CMD under GNU time with a time limit; records LABEL.cpu (user+sys
# seconds), LABEL.user, LABEL.sys, LABEL.rss_mb (max RSS), LABEL.wall, LABEL.rc. The command's
# output goes to $WORK/LABEL.log.
timed() {
  local label=$1 limit=$2; shift 2
  local tf="$WORK/$label.time" rc
  log "run $label: $*"
  : >"$tf"
  waitfor timeout -k 5 "$limit" /usr/bin/time -o "$tf" -f '%U %S %M %e' "$@" >"$WORK/$label.log" 2>&1 </dev/null
  rc=$?
  # GNU time writes "Command exited with non-zero status N" before the figures on failure.
  local user=nan sys=nan rss=nan wall=nan
  [[ -s "$tf" ]] && read -r user sys rss wall < <(tail -n 1 "$tf")
  put "$label.user" "$user"; put "$label.sys" "$sys"
  put "$label.cpu" "$(awk -v u="$user" -v s="$sys" 'BEGIN{printf "%.2f", u+s}')"
  put "$label.rss_mb" "$(awk -v k="$rss" 'BEGIN{printf "%.1f", k/1024}')"
  put "$label.wall" "$wall"; put "$label.rc" "$rc"
  ((rc == 0)) || log "warning: $label exited with status $rc (log: $WORK/$label.log)"
  return 0
}

# queued_errors LABEL: copy warning/error lines of a queued log into the results (first 3).
queued_errors() {
  local n
  n=$(grep -cE ' (warning|error|critical) ' "$WORK/$1.log" || true)
  put "$1.log_problems" "$n"
  grep -E ' (warning|error|critical) ' "$WORK/$1.log" | head -n 3 | while IFS= read -r line; do
    put "$1.log_problem" "${line:0:200}"
  done
}

# build_queued_and_queuectl REPO: sets QUEUED and QUEUECTL — the release builds in REPO/.build-bench, built now,
# unless QUEUED names a queued already (queuectl beside it). Fails (logged) when the build does.
build_queued_and_queuectl() {
  local repo=$1
  if [[ -z "${QUEUED:-}" ]]; then
    log "building queued and queuectl (release, scratch path .build-bench)"
    (cd "$repo" && swift build -c release --product queued --scratch-path .build-bench &&
      swift build -c release --product queuectl --scratch-path .build-bench) >"$WORK/build.log" 2>&1 \
      || { tail -n 30 "$WORK/build.log" >&2; log "build failed"; return 1; }
    QUEUED="$repo/.build-bench/release/queued"
  fi
  QUEUECTL="$(dirname "$QUEUED")/queuectl"
  [[ -x "$QUEUED" && -x "$QUEUECTL" ]] || { log "no queued/queuectl at $QUEUED"; return 1; }
}

#!/usr/bin/env bash
# tools/watchdog.sh MINUTES COMMAND [ARG...]
#
# Runs COMMAND with its output line-buffered (stdbuf: a test binary writing into a pipe otherwise holds its last
# ~4 KB, so a stalled run shows where it was minutes earlier). If COMMAND is still running after MINUTES, prints
# what it was doing — the process tree under it, and every thread's stack of each process in that tree (gdb, when
# installed; 5 minutes of them at most) — then stops it (SIGTERM, SIGKILL 10 s later) and exits 124. Otherwise exits with COMMAND's status.
# Either way its last line says how long COMMAND ran, so a CI log shows where the run's time went.
#
#   tools/watchdog.sh 30 swift test -c release --skip-build --skip CarchainCLITests
set -uo pipefail

if [[ $# -lt 2 || ! "$1" =~ ^[0-9]+$ ]]; then
    echo "usage: tools/watchdog.sh MINUTES COMMAND [ARG...]" >&2
    exit 2
fi
minutes=$1
shift

# A session of its own, so the whole tree can be found and stopped by its session id.
setsid stdbuf -oL -eL "$@" &
pid=$!
trap 'kill -TERM -- -"$pid" 2>/dev/null' INT TERM

started=$SECONDS
deadline=$((started + minutes * 60))
while kill -0 "$pid" 2>/dev/null; do
    if ((SECONDS >= deadline)); then
        echo "watchdog: still running after ${minutes} min: $*" >&2
        echo "watchdog: processes:" >&2
        ps -o pid,ppid,etime,time,stat,args --forest -s "$pid" >&2 || true
        if command -v gdb >/dev/null; then
            # At most 5 minutes of stacks in all (a browser's dozen processes included), 60 s per process.
            stacks_until=$((SECONDS + 300))
            for child in $(ps -o pid= -s "$pid"); do
                ((SECONDS < stacks_until)) || { echo "watchdog: no time left for more stacks" >&2; break; }
                echo "watchdog: threads of $child ($(ps -o comm= -p "$child" 2>/dev/null)):" >&2
                timeout 60 gdb -p "$child" -batch -nx -ex "set pagination off" -ex "thread apply all bt 40" 2>&1 \
                    | grep -E '^(Thread|#)' >&2 || true
            done
        fi
        kill -TERM -- -"$pid" 2>/dev/null
        sleep 10
        kill -KILL -- -"$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
        echo "watchdog: stopped after $((SECONDS - started)) s: $*" >&2
        exit 124
    fi
    sleep 1
done
wait "$pid"
status=$?
echo "watchdog: $((SECONDS - started)) s, exit $status: $*"
exit "$status"

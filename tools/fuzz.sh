#!/usr/bin/env bash
# Builds and runs the libFuzzer harnesses of Fuzz/ (see Fuzz/README.md).
#
#   tools/fuzz.sh build                      sanitizer build of every harness into .build-fuzz
#   tools/fuzz.sh run SECONDS [HARNESS...]   run each harness (default: all) for SECONDS, one after another,
#                                            from its seed corpus; print executions, coverage and crashes
#   tools/fuzz.sh replay HARNESS FILE...     run one harness on saved inputs (a crash reproducer)
#
# Environment: FUZZ_FLAGS adds libFuzzer flags (e.g. "-fork=1 -ignore_crashes=1" to go on after crashes); FUZZ_WORK (default .build-fuzz/work) keeps each harness's growing corpus and crash artifacts
# between runs; FUZZ_JOBS_NICE (default 10) is the nice level; CARCHAIN_FUZZ_AVOID_KNOWN=1 (the default here)
# keeps the node harness off the crash classes listed in Fuzz/regressions/KNOWN-OPEN.
set -euo pipefail
cd "$(dirname "$0")/.."

SWIFT=${SWIFT:-swift}
SCRATCH=.build-fuzz
BIN="$SCRATCH/release"
WORK=${FUZZ_WORK:-$SCRATCH/work}
NICE=${FUZZ_JOBS_NICE:-10}
ALL=(rlp transaction abi keystore jsonrpc node auth)
export CARCHAIN_FUZZ_AVOID_KNOWN=${CARCHAIN_FUZZ_AVOID_KNOWN:-1}

# harness name -> executable name
exe() {
  case "$1" in
    rlp) echo FuzzRLP ;; transaction) echo FuzzTransaction ;; abi) echo FuzzABI ;; keystore) echo FuzzKeystore ;;
    jsonrpc) echo FuzzJSONRPC ;; node) echo FuzzNode ;; auth) echo FuzzAuth ;;
    *) echo "fuzz: unknown harness $1 (known: ${ALL[*]})" >&2; exit 1 ;;
  esac
}

build() {
  local start=$SECONDS
  # --sanitize=fuzzer --sanitize=address instruments C targets and links libFuzzer and ASan; it hands swiftc
  # the two as separate -sanitize= options, of which swiftc keeps only the last (Swift 6.3: the Swift code gets
  # ASan but no coverage, and libFuzzer mutates blind). The combined -Xswiftc option comes last and wins.
  "$SWIFT" build --package-path Fuzz --scratch-path "$SCRATCH" -c release \
    --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address 2>&1 | grep -Ev '^\[[0-9]+/[0-9]+\] (Compiling|Write|Emitting|Wrapping|Linking|Applying)' || true
  for h in "${ALL[@]}"; do
    [ -x "$BIN/$(exe "$h")" ] || { echo "fuzz: build failed ($BIN/$(exe "$h") missing)" >&2; exit 1; }
  done
  echo "fuzz: built ${#ALL[@]} harnesses in $((SECONDS - start)) s"
}

# CPU seconds (user + system) used so far by this shell's finished children, from bash's `times`.
# (`times` must run in this shell, not a subshell: a forked subshell starts with no children's time.)
children_cpu() {
  times >"$WORK/.times"
  tail -1 "$WORK/.times" | awk '{ split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%.1f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }'
}

# Reads libFuzzer's log and prints one summary line.
summarize() {
  local h=$1 log=$2 crashes=$3 cpu=$4
  local last execs cov ft
  last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
  execs=$(sed -nE 's/^#([0-9]+).*/\1/p' <<<"$last")
  cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$last")
  ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$last")
  local corpus
  corpus=$(sed -nE 's/.* corp: ([0-9]+\/[0-9A-Za-z]+).*/\1/p' <<<"$last")
  printf '%-12s execs %10s  cov %6s  ft %7s  corpus %-12s crashes %s  cpu %ss\n' "$h" "${execs:-0}" "${cov:-?}" \
    "${ft:-?}" "${corpus:-?}" "$crashes" "$cpu"
}

run() {
  local seconds=$1; shift
  local harnesses=("$@")
  [ ${#harnesses[@]} -gt 0 ] || harnesses=("${ALL[@]}")
  local failed=0
  mkdir -p "$WORK"
  for h in "${harnesses[@]}"; do
    local e; e=$(exe "$h")
    local corpus="$WORK/$h/corpus" artifacts="$WORK/$h/crashes/" log="$WORK/$h/log.txt"
    mkdir -p "$corpus" "$artifacts"
    local before; before=$(ls "$artifacts" | wc -l)
    children_cpu >"$WORK/.cpu"; local cpu_before; cpu_before=$(cat "$WORK/.cpu")
    # The seed corpus is read-only input; new inputs go to the work corpus. -rss_limit_mb: a hostile request
    # that makes the node allocate gigabytes is a finding too.
    local dict=()
    [ -f "Fuzz/dictionaries/$h.dict" ] && dict=(-dict="Fuzz/dictionaries/$h.dict")
    set +e
    # -detect_leaks=0 and ASAN_OPTIONS (for the check at exit): LeakSanitizer reports the Swift runtime's and Dispatch's one-time allocations as leaks;
    # memory that grows per request is caught by -rss_limit_mb instead. SWIFT_BACKTRACE off: the runtime's
    # backtracer reads other threads' stacks, which ASan reports as an overflow after the real crash.
    ASAN_OPTIONS=detect_leaks=0 SWIFT_BACKTRACE=enable=no nice -n "$NICE" "$BIN/$e" "$corpus" "Fuzz/corpus/$h" -max_total_time="$seconds" \
      -timeout=20 -detect_leaks=0 \
      -rss_limit_mb=3072 -max_len=8192 -print_final_stats=1 -artifact_prefix="$artifacts" \
      "${dict[@]}" ${FUZZ_FLAGS:-} >"$log" 2>&1
    local status=$?
    set -e
    local after; after=$(ls "$artifacts" | wc -l)
    children_cpu >"$WORK/.cpu"; local cpu_after; cpu_after=$(cat "$WORK/.cpu")
    summarize "$h" "$log" "$((after - before))" "$(awk -v a="$cpu_after" -v b="$cpu_before" 'BEGIN { printf "%.0f", a - b }')"
    if [ "$status" -ne 0 ]; then
      failed=1
      echo "  $h stopped with status $status; last lines of $log:"
      grep -E 'ERROR|SUMMARY|Fatal error|invariant failed|artifact_prefix|Test unit written' "$log" | head -8 | sed 's/^/    /'
    fi
  done
  return $failed
}

replay() {
  local h=$1; shift
  ASAN_OPTIONS=detect_leaks=0 SWIFT_BACKTRACE=enable=no "$BIN/$(exe "$h")" -detect_leaks=0 "$@"
}

case "${1:-}" in
  build) build ;;
  run) shift; run "$@" ;;
  replay) shift; replay "$@" ;;
  *) sed -n '2,12p' "$0"; exit 1 ;;
esac

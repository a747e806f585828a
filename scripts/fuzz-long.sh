#!/usr/bin/env bash
# `make fuzz-long`: the long runs docs/fuzzing.md records. Each named target of
# .build/debug/wishlist-fuzz runs until 10 million executions or one hour of its own CPU
# time, whichever comes first, so the hour is an hour of fuzzing however busy the machine is.
# It runs at nice 19 in a session of its own, whose autogroup it sets to nice 19 as root: the
# kernel shares CPU between sessions (autogroups) before nice counts, so a plain nice 19 would
# still take half the machine from a benchmark started in the same terminal's session, and
# setting the autogroup of that session would slow everything else started there. Never
# SIGSTOP it: libFuzzer's -timeout is wall time, and a pause reads as a hang.
# The binary is FUZZ_BINARY, by default the debug build of `make fuzz-build`; `make fuzz-long`
# names the optimised one, which runs several times as many inputs a second (docs/fuzzing.md).
#   scripts/fuzz-long.sh TARGET...    (from the repository's root; results in .build/fuzz/long-summary.txt)
set -u
binary=${FUZZ_BINARY:-.build/debug/wishlist-fuzz}
work=.build/fuzz
if [ -z "${FUZZ_LONG_SESSION:-}" ]; then
    exec env FUZZ_LONG_SESSION=1 setsid --wait nice -n 19 "$0" "$@"
fi
[ "$(id -u)" = 0 ] && echo 19 > /proc/self/autogroup
export SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0
# `config` writes every input to a file in the temporary directory and loads it. On a disk each
# write waited for the last one's writeback (run 7: 440 inputs a second, a sixth of a core);
# in memory it runs 6,000 a second.
if [ -d /dev/shm ] && [ -w /dev/shm ]; then export TMPDIR=/dev/shm; fi
tick=$(getconf CLK_TCK)
status=0
for target in "$@"; do
    corpus=$work/corpus/$target
    artifacts=$work/artifacts/$target/
    mkdir -p "$corpus" "$artifacts"
    log=$work/long-$target.log
    start=$(date -u +%FT%TZ)
    "$binary" "$target" -runs=10000000 -timeout=30 -print_final_stats=1 \
        -artifact_prefix="$artifacts" "$corpus" "Fuzz/corpus/$target" > "$log" 2>&1 &
    pid=$!
    cpu=0
    while kill -0 "$pid" 2>/dev/null; do
        read -r -a fields < "/proc/$pid/stat" 2>/dev/null || break
        cpu=$(( (fields[13] + fields[14]) / tick ))
        [ "$cpu" -ge 3600 ] && kill -INT "$pid"
        sleep 5
    done
    wait "$pid"
    code=$?
    # SIGINT after the hour ends libFuzzer with its final stats and a status of its own; a
    # finding leaves an input in the artifacts directory. A "slow-unit-" input is only one that
    # took over 10 s of wall time, which a busy machine's scheduler can cause by itself.
    if ls "$artifacts" | grep -qv '^slow-unit-'; then status=1; result=FINDING; else result="no finding"; fi
    echo "$target binary=$binary start=$start end=$(date -u +%FT%TZ) cpu_s=$cpu exit=$code" \
        "executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")" \
        "$(grep -o 'cov: [0-9]*' "$log" | tail -n 1) $(grep -o 'ft: [0-9]*' "$log" | tail -n 1)" \
        "peak_mb=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log") corpus=$(ls "$corpus" | wc -l) $result" | tee -a $work/long-summary.txt
done
exit $status

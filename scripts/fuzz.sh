#!/usr/bin/env bash
# `make fuzz`: runs each named libFuzzer target of .build/debug/wishlist-fuzz for SECONDS on
# its committed seeds (Fuzz/corpus/TARGET) and what earlier runs found (.build/fuzz/corpus/TARGET,
# where new inputs go). A crash, a failed check or a timeout stops the run with the input saved in
# .build/fuzz/artifacts/TARGET/; the summary gives each target's executions and coverage.
#   scripts/fuzz.sh SECONDS TARGET...
set -euo pipefail
seconds=$1
shift
binary=.build/debug/wishlist-fuzz
work=.build/fuzz
# Swift's own crash handler would take the signal before libFuzzer saves the input. Leak checks
# are off: the Swift runtime keeps type metadata it allocated once, which LeakSanitizer reports.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=detect_leaks=0
summary=()
for target in "$@"; do
    corpus=$work/corpus/$target
    artifacts=$work/artifacts/$target/
    mkdir -p "$corpus" "$artifacts"
    log=$work/fuzz-$target.log
    echo "fuzz: $target for ${seconds} s (log: $log)"
    if ! "$binary" "$target" -max_total_time="$seconds" -timeout=30 -print_final_stats=1 \
        -artifact_prefix="$artifacts" "$corpus" "Fuzz/corpus/$target" > "$log" 2>&1; then
        tail -n 40 "$log"
        echo "fuzz: $target FAILED; the input is in $artifacts"
        exit 1
    fi
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    coverage=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
    features=$(grep -o 'ft: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
    summary+=("$(printf '%-18s %12s executions  cov %6s  ft %6s  corpus %5s files' \
        "$target" "$executions" "$coverage" "$features" "$(ls "$corpus" | wc -l)")")
done
printf '%s\n' "${summary[@]}"

#!/usr/bin/env bash
# The household mix against two builds in turns, so that both meet the same machine:
#   Benchmarks/server/mix_turns.sh BEFORE AFTER     (from the repository's root)
# BEFORE and AFTER are release builds of `wishlist` (say, main's and a worktree's
# `.build-bench/release/wishlist`). For each rate of MIX_RATES (default "500 1000") it runs
# MIX_ROUNDS rounds (3) of BEFORE then AFTER, each BENCH_MIX_SECONDS long (20), and leaves each
# run's output in .build/bench/turns/RATE-ROUND-before.log and -after.log. The README is left
# alone. As root the session's autogroup goes to nice -10, so that work in other sessions (a
# long fuzz run) yields to it (Benchmarks/README.md, "Measuring on this machine").
set -eu
[ $# -eq 2 ] || { echo "usage: $0 BEFORE AFTER" >&2; exit 2; }
before=$1
after=$2
out=.build/bench/turns
mkdir -p "$out"
[ "$(id -u)" = 0 ] && echo -10 > /proc/self/autogroup
# The generator on uvloop, as `make bench-mix` runs it, once that has made its venv.
python=python3
[ -x .venv-bench/bin/python ] && python=.venv-bench/bin/python
for rate in ${MIX_RATES:-500 1000}; do
    for round in $(seq "${MIX_ROUNDS:-3}"); do
        for build in before after; do
            app=$before
            [ "$build" = after ] && app=$after
            BENCH_MIX_RATE=$rate BENCH_MIX_SECONDS=${BENCH_MIX_SECONDS:-20} BENCH_UPDATE_README=0 \
                BENCH_MACHINE_NOTE="in turns: $build, round $round" BENCH_APP=$app \
                nice -n -10 "$python" Benchmarks/server/mix.py > "$out/$rate-$round-$build.log" 2>&1
            echo "$rate req/s, round $round, $build: $(grep -o '[0-9.]* cores busy, [0-9,]* µs of CPU an answered request' "$out/$rate-$round-$build.log")"
        done
    done
done

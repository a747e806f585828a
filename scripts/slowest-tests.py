#!/usr/bin/env python3
"""The unit run's wall time and its slowest test cases, from Swift Testing's event stream.

`make unit` writes the stream (`swift test --event-stream-output-path`); this prints how long the
run took, how many test cases ran at once at most and on average, and the slowest cases, so a CI
log shows where the time went. Usage: slowest-tests.py EVENTS.jsonl [COUNT]
"""
import json
import sys


def read_events(path):
    with open(path, encoding="utf-8") as stream:
        for line in stream:
            record = json.loads(line)
            if record.get("kind") == "event":
                yield record["payload"]


def main(path, count):
    run_started = run_ended = None
    started, durations, changes = {}, [], []
    for event in read_events(path):
        kind, instant = event["kind"], event["instant"]["absolute"]
        if kind == "runStarted":
            run_started = instant
        elif kind == "runEnded":
            run_ended = instant
        elif kind in ("testCaseStarted", "testCaseEnded"):
            case = (event.get("testID"), json.dumps(event.get("_testCase", {}).get("id")))
            if kind == "testCaseStarted":
                started[case] = instant
                changes.append((instant, 1))
            else:
                durations.append((instant - started.pop(case, instant), event.get("_testCase", {}).get("displayName"), case[0]))
                changes.append((instant, -1))
    if run_started is None or not changes:
        print(f"{path}: no test cases recorded")
        return
    end = run_ended if run_ended is not None else max(at for at, _ in changes)
    changes.sort()
    running = widest = 0
    busy, last = 0.0, changes[0][0]
    for at, step in changes:
        busy += running * (at - last)
        last, running = at, running + step
        widest = max(widest, running)
    print(f"unit run: {end - run_started:.0f} s wall, {len(durations)} test cases, "
          f"at most {widest} at once, {busy / max(end - run_started, 1e-9):.1f} on average")
    print(f"slowest {count}:")
    for seconds, arguments, test_id in sorted(durations, key=lambda entry: entry[0], reverse=True)[:count]:
        suite, _, rest = (test_id or "?").removeprefix("WishlistTests.").partition("/")
        name = rest.split("/")[0]
        shown = " ".join((arguments or "").split())
        if len(shown) > 60:
            shown = shown[:57] + "..."
        print(f"  {seconds:7.2f} s  {suite}.{name}" + (f" [{shown}]" if shown else ""))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 10)

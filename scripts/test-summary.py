#!/usr/bin/env python3
"""The last lines of `make test`: what ran, read from the steps `scripts/test-step.sh` recorded
(out/test-steps.tsv) and the Swift test logs (out/swift-test-*.log): the Swift tests passed,
failed and skipped (with the skips' reasons), each check with its own last line, and the minutes.
The very last line is the plain `tests: N passed, N failed, N skipped` that any CI reads.

    python3 scripts/test-summary.py [--started EPOCH_SECONDS]
"""
import argparse
import glob
import os
import re
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def swift_counts(log):
    """(passed, failed, skipped, skip reasons) of one Swift Testing run's log."""
    text = open(log, errors="replace").read()
    run = re.findall(r"Test run with (\d+) tests? in \d+ suites? (passed|failed)(?: after [\d.]+ seconds)?(?: with (\d+) issues?)?", text)
    failed = len(set(re.findall(r'✘ Test "(.*?)" failed', text)))
    skipped = re.findall(r'Test "(.*?)" skipped: "?(.*?)"?$', text, re.M)
    total = sum(int(count) for count, _, _ in run)
    return total - failed - len(skipped), failed, len(skipped), sorted({reason for _, reason in skipped})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--started", type=float)
    args = parser.parse_args()
    passed = failed = skipped = 0
    reasons = set()
    for log in sorted(glob.glob(os.path.join(ROOT, "out", "swift-test-*.log"))):
        p, f, s, r = swift_counts(log)
        passed, failed, skipped = passed + p, failed + f, skipped + s
        reasons.update(r)
    steps = []
    recorded = os.path.join(ROOT, "out", "test-steps.tsv")
    for line in open(recorded) if os.path.exists(recorded) else []:
        name, status, seconds, last = (line.rstrip("\n").split("\t") + ["", "", "", ""])[:4]
        steps.append((name, status == "0", float(seconds or 0), last))
    # The build, the install of the checks' packages and the Swift test runs are steps; the checks
    # are what comes after them.
    checks = [step for step in steps if step[0] not in ("build", "deps") and not step[0].startswith("swift")]
    print("make test: %d Swift tests passed, %d failed, %d skipped%s" % (
        passed, failed, skipped, " (%s)" % "; ".join(sorted(reasons)) if reasons else ""))
    for name, ok, seconds, last in steps:
        print("  %-14s %-6s %5.0f s  %s" % (name, "ok" if ok else "FAILED", seconds, last))
    if args.started:
        print("make test: %d checks besides the Swift tests; %.1f minutes in all" % (len(checks), (time.time() - args.started) / 60))
    check_failures = sum(1 for check in checks if not check[1])
    print("tests: %d passed, %d failed, %d skipped" % (passed + len(checks) - check_failures, failed + check_failures, skipped))
    return 1 if failed + check_failures else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The CPU time (user + system, from wait4) one command line takes with each of several binaries,
run interleaved: on a machine that the load saturates, a command waits in the run queue in
proportion to the CPU it needs, so this is what `themed publish`'s start is measured by.

    python3 scripts/command-cpu.py --runs 100 BINARY[,BINARY...] -- ARGUMENTS...

Prints each binary's median and its 10th and 90th percentiles, in ms. A run that exits other
than 0 fails the script: a refused command is not a fast one.
"""
import argparse
import os
import statistics
import sys


def cpu_milliseconds(command):
    child = os.fork()
    if child == 0:
        quiet = os.open(os.devnull, os.O_WRONLY)
        os.dup2(quiet, 1)
        os.dup2(quiet, 2)
        try:
            os.execv(command[0], command)
        finally:
            os._exit(127)
    _, status, usage = os.wait4(child, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"command-cpu: {' '.join(command)} exited with {os.waitstatus_to_exitcode(status)}")
    return (usage.ru_utime + usage.ru_stime) * 1000


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("binaries", help="comma-separated paths")
    parser.add_argument("arguments", nargs=argparse.REMAINDER)
    options = parser.parse_args()
    binaries = options.binaries.split(",")
    arguments = options.arguments[1:] if options.arguments[:1] == ["--"] else options.arguments
    times = {binary: [] for binary in binaries}
    for _ in range(options.runs):
        for binary in binaries:
            times[binary].append(cpu_milliseconds([binary] + arguments))
    for binary in binaries:
        ordered = sorted(times[binary])
        print(f"{binary}: median {statistics.median(ordered):.1f} ms, "
              f"p10 {ordered[len(ordered) // 10]:.1f}, p90 {ordered[len(ordered) * 9 // 10]:.1f} ({len(ordered)} runs)")


if __name__ == "__main__":
    main()

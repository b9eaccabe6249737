#!/usr/bin/env python3
"""The clients' contract, one list of scenarios (clients/scenarios.tsv) run against all three
clients, side by side (`make clients-check`, part of `make test`):

- the Swift client: ClientContractTests (`swift test --filter`), each test named by its scenario;
- themed.js: scripts/check-client-js.py in headless Chromium;
- the Kotlin client: ContractTest and ThemedClientTest under JUnit, each scenario a test method.

A scenario passes only where it passes on every client it applies to: one that passes on one
client and not another is a failure, as is one a client has no test for. Where a scenario cannot
apply to a client, NOT_APPLICABLE says why. Prints the table and 'N passed, N failed'.

    python3 scripts/check-clients.py --swift-test "swift test -c release ... --skip-build" \
        --kotlin-classpath CP --themed BIN --themes DIR
"""
import argparse
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

NOT_APPLICABLE = {
    ("swift", "throwing-listener"): "a Swift listener cannot throw",
    ("js", "bootstrap-304"): "a page ships no bootstrap: the browser's HTTP cache revalidates",
    ("js", "restart-resumed"): "make browser-check restarts a real themed under the page",
}

# The Kotlin test of each scenario that is not ContractTest's camel-cased id.
KOTLIN_ELSEWHERE = {
    "bootstrap-304": "ThemedClientTest.startsFromTheBootstrapTheAppShipsAndRevalidatesItsAnswer",
    "restart-resumed": "ThemedClientTest.aServerRestartIsResumedByLastEventIdWithoutAResyncOrARefetch",
}


def camel(scenario):
    first, *rest = scenario.split("-")
    return first + "".join(word.capitalize() for word in rest)


def run(command, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, **kwargs)
    return result.returncode, result.stdout + result.stderr


def swift(scenarios, swift_test):
    _, output = run(shlex.split(swift_test) + ["--filter", "ClientContractTests"])
    results = {}
    for mark, name in re.findall(r'^(✔|✘) Test "([a-z0-9-]+): ', output, re.M):
        if mark == "✘" or results.get(name) != "fail":
            results[name] = "pass" if mark == "✔" else "fail"
    return results, output


def javascript(scenarios):
    _, output = run([sys.executable, os.path.join(ROOT, "scripts", "check-client-js.py")])
    results = {name: "pass" if mark == "ok" else "fail" for mark, name in re.findall(r"^  (ok|FAIL) +([a-z0-9-]+):", output, re.M)}
    return results, output


def kotlin(scenarios, classpath, themed, themes):
    tests = {name: KOTLIN_ELSEWHERE.get(name, "ContractTest." + camel(name)) for name in scenarios}
    classes = sorted({"themed.client." + test.split(".")[0] for test in tests.values()})
    _, output = run(["java", "-Dthemed.binary=" + themed, "-Dthemed.themes=" + themes, "-cp", classpath,
                     "org.junit.runner.JUnitCore"] + classes)
    failed = set(re.findall(r"^\d+\) (\w+)\(themed\.client\.(\w+)\)$", output, re.M))
    ran = re.search(r"^(?:OK \((\d+) tests?\)|Tests run: (\d+))", output, re.M)
    results = {}
    for name, test in tests.items():
        klass, method = test.split(".")
        exists = re.search(r"fun %s\(" % method, open(os.path.join(ROOT, "clients", "kotlin", "src", "test", "kotlin", "themed", "client", klass + ".kt")).read())
        if not exists or not ran:
            results[name] = "missing"
        else:
            results[name] = "fail" if (method, klass) in failed else "pass"
    return results, output


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--swift-test", required=True, help="the swift test command, built already")
    parser.add_argument("--kotlin-classpath", required=True)
    parser.add_argument("--themed", required=True)
    parser.add_argument("--themes", required=True)
    args = parser.parse_args()
    with open(os.path.join(ROOT, "clients", "scenarios.tsv")) as file:
        scenarios = [line.split("\t")[0] for line in file.read().splitlines()[1:] if line]
    columns = {
        "swift": swift(scenarios, args.swift_test),
        "js": javascript(scenarios),
        "kotlin": kotlin(scenarios, args.kotlin_classpath, os.path.abspath(args.themed), os.path.abspath(args.themes)),
    }
    passed = failed = 0
    print("%-26s %-8s %-8s %-8s" % ("scenario", "swift", "js", "kotlin"))
    for name in scenarios:
        cells, ok = [], True
        for client, (results, _) in columns.items():
            if (client, name) in NOT_APPLICABLE:
                cells.append("n/a")
                continue
            result = results.get(name, "missing")
            cells.append(result)
            ok = ok and result == "pass"
        passed, failed = passed + ok, failed + (not ok)
        print("%-26s %-8s %-8s %-8s%s" % (name, *cells, "" if ok else "   <- FAILS"))
    for (client, name), why in sorted(NOT_APPLICABLE.items()):
        print("  n/a %s %s: %s" % (client, name, why))
    if failed:
        for client, (results, output) in columns.items():
            if any(results.get(name) != "pass" for name in scenarios if (client, name) not in NOT_APPLICABLE):
                causes = [line for line in output.splitlines() if "recorded an issue" in line or line.startswith("  FAIL") or re.match(r"^\d+\) ", line)]
                print("--- %s: what failed ---\n%s" % (client, "\n".join(causes)))
                print("--- %s: the output's end ---\n%s" % (client, output[-4000:]))
    print("clients: %d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Self-test of run_golden.py: `--update` rewrites NAME.out and never a check: line, and a case whose
check: figure disagrees with the answer fails, with --update and without.

usage: selftest_golden.py LLMPLAN   (ctest: golden.selftest)
It works on a temporary copy of inspect_qwen2.5-7b.case (every check: figure there is derived by hand
in its comments), so the checked-in cases are never written.
"""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
RUNNER = os.path.join(HERE, "run_golden.py")
CASE = "inspect_qwen2.5-7b"


def run(llmplan, case, *extra, env=None):
    p = subprocess.run([sys.executable, RUNNER, llmplan, case, *extra], capture_output=True, text=True,
                       env=dict(os.environ, **(env or {})), timeout=120)
    return p.returncode, p.stderr


def main(argv):
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    llmplan = argv[0]
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        case = os.path.join(tmp, CASE + ".case")
        out = os.path.join(tmp, CASE + ".out")
        shutil.copy(os.path.join(HERE, CASE + ".case"), case)
        with open(case, encoding="utf-8") as f:
            original = f.read()
        if "check: /model/n_head_kv = 4" not in original:
            return print(f"{CASE}.case no longer holds 'check: /model/n_head_kv = 4': update this test") or 1

        # 1. --update (the option and the variable) on an agreeing case: exit 0, .out written, checks untouched.
        for extra, env in ((["--update"], None), ([], {"LLMPLAN_GOLDEN_UPDATE": "1"})):
            with open(out, "w", encoding="utf-8") as f:
                f.write("{}\n")  # a stale expectation: --update must replace it
            status, err = run(llmplan, case, *extra, env=env)
            with open(case, encoding="utf-8") as f:
                after = f.read()
            with open(out, encoding="utf-8") as f:
                written = f.read()
            if status != 0:
                failures.append(f"--update on an agreeing case exited {status}: {err}")
            if after != original:
                failures.append("--update changed the case file (its check: lines)")
            if '"n_head_kv": 4' not in written:
                failures.append("--update did not rewrite the .out")
        status, err = run(llmplan, case)
        if status != 0:
            failures.append(f"the updated case does not pass: {err}")

        # 2. A check figure away from the answer (5 KV heads where config.json says 4): the run fails,
        # --update leaves the line as it is and fails too, naming the line.
        moved = original.replace("check: /model/n_head_kv = 4", "check: /model/n_head_kv = 5")
        with open(case, "w", encoding="utf-8") as f:
            f.write(moved)
        line = 1 + moved[: moved.index("check: /model/n_head_kv = 5")].count("\n")
        for extra, env in (([], None), (["--update"], None), ([], {"LLMPLAN_GOLDEN_UPDATE": "1"})):
            status, err = run(llmplan, case, *extra, env=env)
            with open(case, encoding="utf-8") as f:
                after = f.read()
            what = " ".join(extra) or ("LLMPLAN_GOLDEN_UPDATE=1" if env else "a plain run")
            if status != 1:
                failures.append(f"{what}: a check away from the answer exited {status}, expected 1")
            if f"{CASE}.case:{line}: /model/n_head_kv: expected 5, got 4" not in err:
                failures.append(f"{what}: the failure does not name the check line {line}: {err!r}")
            if after != moved:
                failures.append(f"{what}: the check line was rewritten")
    for f in failures:
        print(f"FAIL {f}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""Golden cases: run `llmplan` on the request in each tests/golden/*.case and compare its answer.

A case file is plain lines (see tests/golden/README.md):
    # comments: what the case asks and where its figures come from
    args: estimate qwen2.5-7b --json      the command line (shell words); {data} = tests/data
                                          (and the answer's tests/data paths are read back as {data})
    status: 2                             the expected exit status (default 0)
    ignore: /cpu_or_gpu                   a JSON pointer left out of the comparison (repeatable)
    check: /kv_bytes_per_token = 57344    # why: a key figure someone can check by hand
Beside it, NAME.out holds the whole expected answer: stdout (or, when status is not 0, stderr).
JSON answers are compared as data (floats to a relative 1e-9); text answers byte for byte. Rows of
this machine (objects with "kind": "local") are always left out: they are measured at each run.

usage: run_golden.py LLMPLAN CASE... [--update]   (or LLMPLAN_GOLDEN_UPDATE=1)
--update rewrites NAME.out only, for review in git diff. A check: line is a figure written by hand from
its source and is never rewritten: a run (with --update or without) fails when the answer moves away
from it, so a figure that moves on purpose is changed by hand, with the arithmetic in its comment.
"""
import json
import math
import os
import re
import shlex
import subprocess
import sys
import tempfile

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data")
CHECK = re.compile(r"^check:\s*(?P<ptr>\S+)\s*=\s*(?P<value>[^#]*?)\s*(?P<comment>#.*)?$")


def parse_case(path):
    case = {"args": None, "status": 0, "ignore": [], "checks": []}
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            key, _, rest = line.partition(":")
            rest = rest.strip()
            if key == "args":
                case["args"] = shlex.split(rest.replace("{data}", os.path.normpath(DATA)))
            elif key == "status":
                case["status"] = int(rest)
            elif key == "ignore":
                case["ignore"].append(rest)
            elif key == "check":
                m = CHECK.match(line)
                if not m:
                    raise SystemExit(f"{path}:{n}: expected 'check: /pointer = value  # why'")
                case["checks"].append((n, m.group("ptr"), m.group("value")))
            else:
                raise SystemExit(f"{path}:{n}: unknown key {key!r}; expected args, status, ignore or check")
    if not case["args"]:
        raise SystemExit(f"{path}: no 'args:' line")
    return case


def pointer_parts(ptr):
    if not ptr.startswith("/"):
        raise SystemExit(f"{ptr}: a JSON pointer starts with /")
    return [p.replace("~1", "/").replace("~0", "~") for p in ptr[1:].split("/")]


def resolve(doc, ptr):
    for p in pointer_parts(ptr):
        if isinstance(doc, list):
            doc = doc[int(p)]
        else:
            doc = doc[p]
    return doc


def drop(doc, ptr):
    parts = pointer_parts(ptr)
    for p in parts[:-1]:
        doc = doc[int(p)] if isinstance(doc, list) else doc.get(p, {})
    if isinstance(doc, dict):
        doc.pop(parts[-1], None)
    elif isinstance(doc, list) and int(parts[-1]) < len(doc):
        del doc[int(parts[-1])]


def without_local(doc):
    if isinstance(doc, dict):
        return {k: without_local(v) for k, v in doc.items()}
    if isinstance(doc, list):
        return [without_local(x) for x in doc if not (isinstance(x, dict) and x.get("kind") == "local")]
    return doc


def normalise(text, ignore):
    try:
        doc = json.loads(text)
    except ValueError:
        return None
    doc = without_local(doc)
    for ptr in ignore:
        drop(doc, ptr)
    return doc


def same(a, b, where="", out=None):
    """Differences between two JSON values as 'pointer: expected X, got Y' lines."""
    out = [] if out is None else out
    if isinstance(a, float) or isinstance(b, float):
        if not (isinstance(a, (int, float)) and isinstance(b, (int, float))) or not math.isclose(
            a, b, rel_tol=1e-9, abs_tol=1e-12
        ):
            out.append(f"{where or '/'}: expected {a!r}, got {b!r}")
    elif type(a) is not type(b):
        out.append(f"{where or '/'}: expected {a!r}, got {b!r}")
    elif isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in b:
                out.append(f"{where}/{k}: missing")
            elif k not in a:
                out.append(f"{where}/{k}: not expected")
            else:
                same(a[k], b[k], f"{where}/{k}", out)
    elif isinstance(a, list):
        if len(a) != len(b):
            out.append(f"{where or '/'}: expected {len(a)} items, got {len(b)}")
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"{where}/{i}", out)
    elif a != b:
        out.append(f"{where or '/'}: expected {a!r}, got {b!r}")
    return out


def answer_text(llmplan, case):
    env = dict(os.environ, HF_HUB_OFFLINE="1")
    with tempfile.TemporaryDirectory() as home:
        # A fresh cache: no Hub answers or bandwidth figures from an earlier run.
        env["XDG_CACHE_HOME"] = home
        env["HF_HOME"] = os.path.join(home, "hf")
        p = subprocess.run([llmplan] + case["args"], capture_output=True, text=True, env=env, timeout=120)
    text = p.stdout if case["status"] == 0 else p.stderr
    # Paths under tests/data are written as {data} so that the expectation holds in any checkout.
    return p.returncode, text.replace(os.path.normpath(DATA), "{data}")


def run_case(llmplan, path, update):
    case = parse_case(path)
    expected_path = path[: -len(".case")] + ".out"
    status, text = answer_text(llmplan, case)
    problems = []
    if status != case["status"]:
        problems.append(f"exit status {status}, expected {case['status']}")
    got = normalise(text, case["ignore"])
    if update:
        if got is not None:
            text = json.dumps(got, indent=1, sort_keys=True) + "\n"
        with open(expected_path, "w", encoding="utf-8") as f:
            f.write(text)
        print(f"{path}: updated {os.path.basename(expected_path)} (check: lines are not rewritten)")
        return problems + check_problems(path, case, got)
    try:
        with open(expected_path, encoding="utf-8") as f:
            expected_text = f.read()
    except FileNotFoundError:
        return problems + [f"{expected_path}: missing (run with --update, then review it)"]
    if got is None:
        if text != expected_text:
            problems.append(f"text differs from {expected_path}:\n--- got\n{text}")
    else:
        expected = normalise(expected_text, [])
        if expected is None:
            problems.append(f"{expected_path}: not JSON, but the answer is")
        else:
            problems += same(expected, got)
    return problems + check_problems(path, case, got)


def check_problems(path, case, got):
    """The check: lines against the answer: each figure was written by hand from its source."""
    problems = []
    if case["checks"] and got is None:
        return [f"{path}: check: lines need a JSON answer"]
    for line, ptr, value in case["checks"]:
        try:
            actual = resolve(got, ptr)
        except (KeyError, IndexError, ValueError, TypeError):
            problems.append(f"{path}:{line}: {ptr} is not in the answer")
            continue
        problems += [f"{path}:{line}: {d} (a check: figure comes from its source, not from the output)"
                     for d in same(json.loads(value), actual, ptr)]
    return problems


def main(argv):
    update = "--update" in argv or os.environ.get("LLMPLAN_GOLDEN_UPDATE") == "1"
    args = [a for a in argv if a != "--update"]
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    llmplan, cases = args[0], args[1:]
    failed = 0
    for path in cases:
        problems = run_case(llmplan, path, update)
        if problems:
            failed += 1
            print(f"FAIL {path}", file=sys.stderr)
            for p in problems[:40]:
                print(f"  {p}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

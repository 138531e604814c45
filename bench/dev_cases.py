#!/usr/bin/env python3
"""Write tests/data/truth/dev_cases.jsonl: the cases of the outside accuracy measure
(../shared/bench/cases/dev.jsonl) exactly as ../shared/bench/score.py runs them: the cases that name a
model folder (score.py runs no other without --catalog), their options unchanged (no engine release,
no trainer added: that is tests/unit/accuracy_default_test.cpp's point), so that ctest measures the
path a user and the outside measure take, without reading ../shared at test time.

    python3 bench/dev_cases.py [DEV_JSONL] [OUT_JSONL]

Each line keeps what the scorer reads: id, source, task, model_dir, args, metric, measured_bytes,
tolerance. model_dir is a folder of data/ (the catalog) or tests/data/ (test-only configs); a case
whose ../shared model folder is not here under the same name is pointed at the catalog folder whose
config.json is byte-identical (shared_model_dir keeps the name the case had), and the script stops
when there is none.
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(ROOT, "..", "shared")  # the default; else the folder two above DEV_JSONL's
KEEP = ("id", "source", "task", "model_dir", "args", "metric", "measured_bytes", "tolerance")


def read(path):
    with open(path, "rb") as f:
        return f.read()


def local_folder(model_dir, catalog):
    """The folder of this repository holding the same config.json as ../shared/<model_dir>."""
    want = read(os.path.join(SHARED, model_dir, "config.json"))
    for base in ("data", os.path.join("tests", "data")):
        p = os.path.join(ROOT, base, model_dir, "config.json")
        if os.path.exists(p):
            if read(p) != want:
                raise SystemExit(f"{base}/{model_dir}/config.json differs from ../shared/{model_dir}")
            return model_dir
    for name, data in catalog.items():
        if data == want:
            return "models/" + name
    raise SystemExit(f"no config.json here is the same as ../shared/{model_dir}/config.json")


def main():
    global SHARED
    dev = sys.argv[1] if len(sys.argv) > 1 else os.path.join(SHARED, "bench", "cases", "dev.jsonl")
    SHARED = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(dev))))  # shared/bench/cases/
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "tests", "data", "truth", "dev_cases.jsonl")
    models = os.path.join(ROOT, "data", "models")
    catalog = {d: read(os.path.join(models, d, "config.json")) for d in sorted(os.listdir(models))
               if os.path.exists(os.path.join(models, d, "config.json"))}
    n = 0
    with open(dev, encoding="utf-8") as f, open(out + ".tmp", "w", encoding="utf-8") as w:
        for line in f:
            if not line.strip():
                continue
            c = json.loads(line)
            if not c.get("model_dir"):
                continue
            row = {k: c[k] for k in KEEP if k in c}
            here = local_folder(c["model_dir"], catalog)
            if here != c["model_dir"]:
                row["model_dir"] = here
                row["shared_model_dir"] = c["model_dir"]
            w.write(json.dumps(row) + "\n")
            n += 1
    os.replace(out + ".tmp", out)
    print(f"{n} cases -> {out}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Write data/models/sources.json from the tables of data/models/SOURCES.md (run after editing it).

Each catalog folder maps to where its config.json came from: {"repo", "path", "commit", "check"}
for a copied config, {"shares_config_of", "evidence"} for a sibling proven to share its Base's
tensor shapes, or {"seed"} for the seed configs whose upstream file was never recorded. `llmplan models --json` shows it as each model's "source"; a unit test checks that
every catalog model has one.
"""
import json
import re
import sys
from pathlib import Path

here = Path(__file__).resolve().parent
rows, header = {}, None
for line in (here / "SOURCES.md").read_text().splitlines():
    if line.startswith("#"):  # a new section; a blank line may split one table
        header = None
    if not line.startswith("|"):
        continue
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if cells and cells[0] == "folder":
        header = cells
        continue
    if header is None or set(line) <= set("|-: "):
        continue
    r = dict(zip(header, cells))
    folder = r.get("folder", "")
    if not (here / folder).is_dir() or folder in rows:
        continue
    # A folder with its own config.json takes a copy row; one with a catalog.json, a sibling row
    # (gemma-2-9b-it was a sibling in round 3 and has its own file since round 4).
    own_file = (here / folder / "config.json").exists()
    if own_file == ("shares the config of" in r):
        continue
    clean = lambda s: re.sub(r"`", "", s or "").strip()
    if "shares the config of" in r:
        ev = r.get("evidence") or r.get("evidence (Hub totals)") or ""
        rows[folder] = {"shares_config_of": clean(r["shares the config of"]).replace("--", "/", 1),
                        "evidence": clean(ev)}
    elif r.get("source repo"):
        rows[folder] = {"repo": clean(r["source repo"]), "path": clean(r.get("path")),
                        "commit": clean(r.get("commit")),
                        "check": clean(r.get("check") or r.get("check / notes"))}
missing = sorted(p.name for p in here.iterdir() if p.is_dir() and p.name not in rows)
for folder in missing:  # the seed configs the project started from (the measured cases' models)
    rows[folder] = {"seed": "the project's seed set of config.json files (shared/models), upstream not recorded"}
(here / "sources.json").write_text(json.dumps(rows, indent=1, sort_keys=True) + "\n")
print(f"{len(rows)} folders; seed only: {missing}", file=sys.stderr)

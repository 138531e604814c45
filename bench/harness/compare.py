#!/usr/bin/env python3
"""Compare measured llama.cpp buffers / peak RSS with llmplan's estimate; print a table, write JSON.

Mapping (measured -> estimate part): model buffer -> weights, KV buffer -> kv_cache,
compute + output buffers -> compute, peak RSS (VmHWM) -> total_bytes, also
peak RSS minus node's RSS at start -> total_bytes (total_excl_node). Errors are
(predicted - measured) / measured. usage: compare.py cases.jsonl results.json
"""
import json
import sys

MIB = 1048576  # 2^20


def parts(est):
    try:
        d = est["devices"][0]
        p = d["parts"]
        return {"weights": p["weights"], "kv_cache": p["kv_cache"], "compute": p["compute"], "total": d["total_bytes"]}
    except (KeyError, IndexError, TypeError):
        return None


def main():
    # one JSON object per case; llmplan's JSON is pretty-printed, so decode a stream, not lines
    text, rows, pos, dec = open(sys.argv[1]).read(), [], 0, json.JSONDecoder()
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text):
            break
        obj, pos = dec.raw_decode(text, pos)
        rows.append(obj)
    out = []
    print("%-30s %-5s %5s %3s | %-22s %-22s %-22s %-22s" % (
        "model", "quant", "ctx", "fa", "weights MiB pred/meas", "kv MiB", "compute MiB", "total vs peak RSS-node MiB"))
    for r in rows:
        m = r["measured"]
        rec = {k: r[k] for k in ("model", "quant", "ctx", "flash_attn")}
        if "buffers_bytes" not in m:
            rec["error"] = m.get("error", "no measurement")
            out.append(rec)
            print("%-30s %-5s %5d %3s | measurement failed" % (r["model"][:30], r["quant"], r["ctx"], r["flash_attn"]))
            continue
        b = m["buffers_bytes"]
        meas = {"weights": b["model"], "kv_cache": b["kv"], "compute": b["compute"] + b["output"],
                "total": m["peak_rss_bytes"],
                # node's own resident memory before llama.cpp loads: a native llama.cpp binary has none of it
                "total_excl_node": m["peak_rss_bytes"] - m["rss_bytes"]["start"]}
        rec["measured"] = meas
        rec["measured_buffers"] = b
        rec["measured_rss"] = m["rss_bytes"]
        rec["buffer_lines"] = m["buffer_lines"]
        cells = []
        for key, est in (("estimate", r["estimate"]), ("estimate_gguf", r["estimate_gguf"])):
            p = parts(est)
            rec[key] = p
            if p is None:
                continue
            p["total_excl_node"] = p["total"]
            rec[key + "_error"] = {k: round((p[k] - meas[k]) / meas[k], 4) if meas[k] else None for k in meas}
        p = rec["estimate"]
        for k in ("weights", "kv_cache", "compute", "total_excl_node"):
            if p is None:
                cells.append("n/a")
            else:
                cells.append("%.1f/%.1f (%+.0f%%)" % (p[k] / MIB, meas[k] / MIB, 100 * rec["estimate_error"][k]))
        print("%-30s %-5s %5d %3s | %-22s %-22s %-22s %-22s" % ((r["model"][:30], r["quant"], r["ctx"], r["flash_attn"]) + tuple(cells)))
        out.append(rec)
    json.dump({"engine": "llama.cpp via node-llama-cpp 3.21.1 (prebuilt CPU binaries), threads=2, mmap off, gpuLayers 0",
               "mapping": " ".join(__doc__.splitlines()[2:6]), "cases": out}, open(sys.argv[2], "w"), indent=1)


if __name__ == "__main__":
    main()

"""The Python module's argument conversion, fuzzed (issue 26): keyword arguments of every type a caller
may pass (str with odd characters and lone surrogates, huge and negative ints, NaN, infinities, -0.0,
bools, bytes, lists, dicts, None, paths) through llmplan.estimate / plan / inspect / models / hardware /
check. Each call returns the command's document or raises llmplan.Error with a message naming the
option; never another exception (a TypeError from the native call, a crash, a hang). A fixed seed: the
same 600 calls every run (about 10 s). Offline, catalog models only, a plan on one GPU row (a plan over
the whole catalog takes seconds; fuzz_api.cpp fuzzes the same options' strings in C++)."""
import math
import pathlib
import random

import llmplan

VALUES = [
    "", "0", "1", "-1", "1e40", "nan", "inf", "-0", "4096", "80GiB", "q4_k_m", "on", "off", "vllm", "llama.cpp",
    "sglang", "mlx", "metal", "cuda", "\x00", "12\x0034", "\udc80", "caf\u00e9", "\u202e", " ", "a" * 300, "1,2",
    "q,v", "H100 SXM 80GB", "--ctx", "=", "%s%n", 0, 1, -1, 7, 4096, 2**31, 2**63, 2**64, 10**30, -(10**30),
    0.0, -0.0, 0.5, 0.9, 1.0, 1e-300, 1e300, 1e308, math.inf, -math.inf, math.nan, True, False, None,
    b"12", bytearray(b"x"), [1, 2], ["q", "v"], (4096,), {"a": 1}, pathlib.Path("nope"), object(),
]
MODEL = "qwen2.5-0.5b"
# A real engine log (tests/data/logs/vllm_00.log, its source in tests/data/logs/manifest.json).
LOG = (pathlib.Path(__file__).parent.parent / "data" / "logs" / "vllm_00.log").read_text(encoding="utf-8")


def value_for(rng, spec):
    """Half the time a value the option takes (one of its choices, a usual number), else any of VALUES:
    so that calls get past the first bad option and reach the estimators with odd values beside good ones."""
    if rng.random() < 0.5:
        return rng.choice(VALUES)
    if spec["kind"] == "choice":
        return rng.choice(spec["values"].split())
    if spec["kind"] == "flag":
        return rng.choice([True, False])
    return rng.choice({"number": [0.9, 0.5, 1], "size": ["24GiB", "80 GB"], "count": ["100M", "2B"],
                       "list": [["q", "v"], "q,v"]}.get(spec["kind"], [1, 2, 512, 4096]))


def call(command, options):
    if command == "estimate":
        return llmplan.estimate(MODEL, **options)
    if command == "plan":
        options.pop("hardware", None)
        return llmplan.plan(MODEL, hardware="H100 SXM 80GB", **options)
    if command == "inspect":
        return llmplan.inspect(MODEL, **options)
    if command == "models":
        return llmplan.models(**options)
    if command == "hardware":
        return llmplan.hardware(**options)
    return llmplan.check(LOG, **options)


def test_every_argument_type_is_a_document_or_an_error_naming_the_option():
    rng = random.Random(26)
    skip = ("model", "log", "from", "hardware_file", "refresh", "log_name")  # paths, the network, the input
    table = {c: [o for o in llmplan.options(c) if o["name"] not in skip]
             for c in ("estimate", "plan", "inspect", "models", "hardware", "check")}
    other, docs = [], 0
    for i in range(600):
        command = rng.choice(list(table))
        options = {}
        for _ in range(rng.randint(1, 3)):
            spec = rng.choice(table[command])
            options[spec["name"].replace("-", "_")] = value_for(rng, spec)
        try:
            doc = call(command, dict(options))
            assert isinstance(doc, dict)
            docs += 1
        except llmplan.Error as e:
            assert str(e), (command, options)
        except Exception as e:  # noqa: BLE001: what the test looks for
            other.append(f"{command} {options!r}: {type(e).__name__}: {e}"[:300])
    assert not other, "\n".join(other[:10])
    assert docs >= 100, f"only {docs} of 600 calls got a document: the values no longer reach the estimators"

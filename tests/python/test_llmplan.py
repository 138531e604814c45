"""The Python module against the CLI it shares a library with (issue 24): the same documents, key
for key, and the CLI's messages as llmplan.Error. Run by ctest (label python) with PYTHONPATH at the
built package and LLMPLAN_CLI at the built program."""
import json
import os
import subprocess

import pytest

import llmplan

CLI = os.environ["LLMPLAN_CLI"]
DATA = os.environ["LLMPLAN_TEST_DATA"]
ENV = dict(os.environ, HF_HUB_OFFLINE="1")


def cli_json(*args):
    out = subprocess.run([CLI, *args, "--json"], check=True, capture_output=True, text=True, env=ENV)
    return json.loads(out.stdout)


def cli_error(*args):
    out = subprocess.run([CLI, *args], capture_output=True, text=True, env=ENV)
    assert out.returncode == 2
    return out.stderr.strip().removeprefix("llmplan: ")


def without_local(v):
    """Rows measured on this machine at each run ("kind": "local") differ between two runs."""
    if isinstance(v, list):
        return [without_local(e) for e in v if not (isinstance(e, dict) and e.get("kind") == "local")]
    if isinstance(v, dict):
        return {k: without_local(x) for k, x in v.items()}
    return v


def test_estimate_equals_the_cli_key_for_key():
    got = llmplan.estimate("Qwen/Qwen2.5-7B-Instruct", ctx=8192)
    assert got == cli_json("estimate", "Qwen/Qwen2.5-7B-Instruct", "--ctx", "8192")
    # Qwen2.5-7B: 28 layers x 4 KV heads x 128 dims x (K + V) x 2 bytes (f16) = 57,344 bytes a token.
    assert got["kv_bytes_per_token"] == 57344


def test_options_by_cli_name_with_underscores():
    got = llmplan.estimate("Qwen/Qwen2.5-7B-Instruct", engine="vllm", gpu_memory_utilization=0.9, ctx=4096)
    want = cli_json("estimate", "Qwen/Qwen2.5-7B-Instruct", "--engine", "vllm", "--gpu-memory-utilization", "0.9",
                    "--ctx", "4096")
    assert got == want
    train = llmplan.estimate("meta-llama/Llama-3.1-8B-Instruct", task="train", method="lora",
                             lora_targets=["q", "v"], grad_checkpointing=True, seq=1024)
    assert without_local(train) == without_local(cli_json(
        "estimate", "meta-llama/Llama-3.1-8B-Instruct", "--task", "train", "--method", "lora", "--lora-targets",
        "q,v", "--grad-checkpointing", "on", "--seq", "1024"))


def test_every_command():
    assert llmplan.models("qwen2.5-7b") == cli_json("models", "qwen2.5-7b")
    assert llmplan.inspect("qwen2.5-0.5b") == cli_json("inspect", "qwen2.5-0.5b")
    assert without_local(llmplan.hardware("rtx-4090")) == without_local(cli_json("hardware", "show", "rtx-4090"))
    assert llmplan.run("estimate", "qwen2.5-0.5b", ctx=2048) == cli_json("estimate", "qwen2.5-0.5b", "--ctx", "2048")
    plan = llmplan.plan("qwen2.5-0.5b", weights="q4_k_m", top=3)
    assert without_local(plan) == without_local(cli_json("plan", "qwen2.5-0.5b", "--weights", "q4_k_m", "--top", "3"))


def test_a_local_file_and_a_log():
    config = os.path.join(DATA, "..", "..", "data", "models", "Qwen--Qwen2.5-0.5B-Instruct", "config.json")
    assert llmplan.inspect(config) == cli_json("inspect", config)
    log = os.path.join(DATA, "logs", "vllm_00.log")
    got = llmplan.check(log, model="meta-llama/Meta-Llama-3-8B")
    assert got["engine"] == "vllm"
    with open(log, encoding="utf-8") as f:
        assert llmplan.check(f.read(), model="meta-llama/Meta-Llama-3-8B")["rows"] == got["rows"]


def test_bad_input_raises_the_cli_message():
    with pytest.raises(llmplan.Error) as e:
        llmplan.estimate("Qwen/Qwen2.5-7B-Instruct", ctx=0)
    assert isinstance(e.value, ValueError)
    assert str(e.value) == cli_error("estimate", "Qwen/Qwen2.5-7B-Instruct", "--ctx", "0")
    assert "--ctx" in str(e.value)
    with pytest.raises(llmplan.Error, match="--contxt"):
        llmplan.estimate("Qwen/Qwen2.5-7B-Instruct", contxt=4096)
    with pytest.raises(llmplan.Error, match="--ctx: a list"):
        llmplan.estimate("Qwen/Qwen2.5-7B-Instruct", ctx=[1, 2])
    with pytest.raises(llmplan.Error, match="no-such-model-anywhere"):
        llmplan.estimate("no-such-model-anywhere", offline=True)


def test_docstrings_and_stubs_come_from_the_option_table():
    assert "gpu_memory_utilization" in llmplan.estimate.__doc__
    names = {o["name"] for o in llmplan.options("estimate")}
    assert {"ctx", "gpu_memory_utilization", "lora_targets"} <= names
    stub = os.path.join(os.path.dirname(llmplan.__file__), "__init__.pyi")
    with open(stub, encoding="utf-8") as f:
        text = f.read()
    assert "gpu_memory_utilization: float | None = ...," in text
    assert "engine: Literal[" in text

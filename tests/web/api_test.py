#!/usr/bin/env python3
"""Tests of `llmplan serve` over real HTTP: a server on 127.0.0.1 started here, answered byte for byte
like the CLI's --json, and each security rule of issue 11 (no path as MODEL, body cap 413, malformed
input 400 with the CLI's message, unknown routes 404, no CORS wildcard, a Content-Security-Policy,
DNS-rebinding Host refused, the non-loopback warning). Usage: api_test.py LLMPLAN TESTS_DATA_DIR"""
import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

LLMPLAN = sys.argv[1] if len(sys.argv) > 1 else "build/llmplan"
DATA = sys.argv[2] if len(sys.argv) > 2 else "tests/data"
REPO = os.path.dirname(os.path.dirname(os.path.abspath(DATA)))
MODEL = "Qwen/Qwen2.5-7B-Instruct"
# One private cache for the server and every CLI run of this file: both read this machine's bandwidth
# from the same file, which no other test (run in parallel by ctest) rewrites between the two reads.
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="llmplan-api-test-")
CONFIG = os.path.join(REPO, "data/models/Qwen--Qwen2.5-0.5B-Instruct/config.json")
GGUF = os.path.join(DATA, "gguf/llama-2-tiny-random.gguf")
BODY_CAP = 16 << 20  # llmplan/load_bytes.h: max_model_bytes


def start_server(*args, env=None):
    p = subprocess.Popen([LLMPLAN, "serve", "--port", "0", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env=env)
    line = p.stdout.readline()
    m = re.search(r"http://(\S+):(\d+)/", line)
    if not m:
        p.kill()
        raise RuntimeError(f"no address printed: {line!r} {p.stderr.read()!r}")
    return p, int(m.group(2))


def cli(*args, env=None):
    r = subprocess.run([LLMPLAN, *args, "--json"], capture_output=True, env=env)
    return r.returncode, r.stdout, r.stderr.decode().strip()


def without_local(text):
    j = json.loads(text)
    j["candidates"] = [c for c in j["candidates"] if c["kind"] != "local"]
    j.pop("cpu_or_gpu", None)
    return json.dumps(j, indent=1).encode()


def tearDownModule():
    shutil.rmtree(os.environ["XDG_CACHE_HOME"], ignore_errors=True)


class Api(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server, cls.port = start_server()

    @classmethod
    def tearDownClass(cls):
        cls.server.terminate()
        cls.server.wait(10)

    def request(self, method, path, body=None, headers=None):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        c.request(method, path, body=body, headers=headers or {})
        r = c.getresponse()
        data = r.read()
        c.close()
        return r.status, dict((k.lower(), v) for k, v in r.getheaders()), data

    def assert_same_bytes(self, command, query, args):
        status, headers, body = self.request("GET", f"/api/{command}?{query}")
        rc, out, err = cli(*args)
        self.assertEqual(rc, 0, err)
        self.assertEqual(status, 200, body[:300])
        self.assertEqual(headers["content-type"], "application/json")
        if command == "plan":
            # "this machine" is measured (a memory-bandwidth probe, cached once measured): its row may
            # differ between two runs, so compare the plan without it, and the rest byte for byte.
            body, out = without_local(body), without_local(out)
        if command == "hardware" and not query:
            # This machine's free RAM moves between any two reads; the rest is compared byte for byte.
            body, out = (re.sub(rb'"available_bytes": \d+', b'"available_bytes": 0', t) for t in (body, out))
        self.assertEqual(body, out)

    def test_get_equals_cli_bytes_for_every_command(self):
        # Every command the API answers, with the options each is asked with most, including
        # repeated (hardware) and positional (fit NAME, models FILTER) ones.
        cases = [
            ("inspect", f"model={MODEL}", ["inspect", MODEL]),
            ("estimate", f"model={MODEL}&ctx=8192&engine=vllm", ["estimate", MODEL, "--ctx", "8192", "--engine", "vllm"]),
            ("estimate", f"model={MODEL}&engine=llama.cpp&weights=q4_k_m&batch=4",
             ["estimate", MODEL, "--engine", "llama.cpp", "--weights", "q4_k_m", "--batch", "4"]),
            ("estimate", f"model={MODEL}&task=train&method=qlora", ["estimate", MODEL, "--task", "train", "--method", "qlora"]),
            ("estimate", f"model={MODEL}&task=train&method=full&gpus=8&zero=3",
             ["estimate", MODEL, "--task", "train", "--method", "full", "--gpus", "8", "--zero", "3"]),
            ("plan", f"model={MODEL}&hardware=rtx-4090", ["plan", MODEL, "--hardware", "rtx-4090"]),
            ("plan", f"model={MODEL}&hardware=rtx-4090&hardware=H100 SXM 80GB".replace(" ", "%20"),
             ["plan", MODEL, "--hardware", "rtx-4090", "--hardware", "H100 SXM 80GB"]),
            ("plan", f"model={MODEL}&weights=q4_k_m", ["plan", MODEL, "--weights", "q4_k_m"]),
            ("plan", f"model={MODEL}&task=train&method=lora", ["plan", MODEL, "--task", "train", "--method", "lora"]),
            ("plan", f"model={MODEL}&from=Qwen/Qwen2.5-0.5B-Instruct", ["plan", MODEL, "--from", "Qwen/Qwen2.5-0.5B-Instruct"]),
            # Serving at load (issue 22, the page's "serve many users" mode and its chart's points).
            ("plan", f"model={MODEL}&engine=vllm&concurrency=32&ttft-ms=500&tpot-ms=50&hardware=rtx-4090",
             ["plan", MODEL, "--engine", "vllm", "--concurrency", "32", "--ttft-ms", "500", "--tpot-ms", "50",
              "--hardware", "rtx-4090"]),
            ("plan", f"model={MODEL}&engine=sglang&request-rate=2.5&input-len=500&output-len=100&slo-percentile=90"
                     "&hardware=rtx-4090&gpus=1&tensor-parallel=1&max-num-seqs=256&max-num-batched-tokens=2048",
             ["plan", MODEL, "--engine", "sglang", "--request-rate", "2.5", "--input-len", "500", "--output-len", "100",
              "--slo-percentile", "90", "--hardware", "rtx-4090", "--gpus", "1", "--tensor-parallel", "1",
              "--max-num-seqs", "256", "--max-num-batched-tokens", "2048"]),
            ("fit", "name=rtx-4090", ["fit", "rtx-4090"]),
            ("fit", f"name=rtx-4090&model={MODEL}&ctx=32768", ["fit", "rtx-4090", "--model", MODEL, "--ctx", "32768"]),
            ("models", "", ["models"]),
            ("models", "filter=qwen", ["models", "qwen"]),
            ("hardware", "", ["hardware"]),
            ("hardware", "list=1", ["hardware", "list"]),
            ("hardware", "filter=h100", ["hardware", "--filter", "h100"]),
            ("hardware", "name=rtx-4090", ["hardware", "--name", "rtx-4090"]),
        ]
        for command, query, args in cases:
            with self.subTest(command=command, query=query):
                self.assert_same_bytes(command, query, args)

    def test_catalog_models_across_families_equal_cli_bytes(self):
        # One catalog model in every 25 (ten families and sizes, from the sorted catalog): inspect
        # and estimate answered byte for byte as the CLI prints them.
        _, out, _ = cli("models")
        ids = [m["id"] for m in json.loads(out)["models"]]
        self.assertGreaterEqual(len(ids), 200)
        for model in ids[::25]:
            for command in ("inspect", "estimate"):
                with self.subTest(model=model, command=command):
                    self.assert_same_bytes(command, f"model={model}", [command, model])

    def test_described_machine_is_answered_as_a_hardware_file_row(self):
        # Issue 25: a machine the page describes (an M3 Pro with 36 GB; a PC with 16 GB of DDR5 and no
        # GPU) is planned as the CLI plans the same row from a --hardware-file: the chip's 150 GB/s
        # (data/hardware/gpus.csv), DDR5-5600 on two channels = 5600 MT/s x 8 B x 2 = 89.6 GB/s.
        rows = {
            "my-chip=Apple%20M3%20Pro&my-memory-gb=36&device=metal":
                ('"My machine",laptop,"Apple M3 Pro",36,unified (shared CPU/GPU),"Apple M3 Pro",,150,"the chip\'s row",',
                 ["--device", "metal"]),
            "my-ram-gb=16&my-ram-type=ddr5&device=cpu":
                ('"My machine",desktop,,16,"DDR5-5600, two channels",,,89.6,"DDR5-5600, two channels",89.6', ["--device", "cpu"]),
        }
        header = "name,form,cpu,ram_gb,ram_type,gpu,vram_gb,memory_bandwidth_gb_s,bandwidth_basis,system_ram_bandwidth_gb_s\n"
        for query, (row, args) in rows.items():
            with self.subTest(query=query), tempfile.TemporaryDirectory() as d:
                path = os.path.join(d, "mine.csv")
                with open(path, "w") as f:
                    f.write(header + row + "\n")
                status, _, body = self.request(
                    "GET", f"/api/plan?model={MODEL}&engine=llama.cpp&weights=q4_k_m&hardware=My%20machine&{query}")
                rc, out, err = cli("plan", MODEL, "--engine", "llama.cpp", "--weights", "q4_k_m", "--hardware-file", path,
                                   "--hardware", "My machine", *args)
                self.assertEqual((status, rc), (200, 0), (body[:300], err))
                self.assertEqual(without_local(body), without_local(out))
                mine = [c for c in json.loads(body)["candidates"] if c["hardware"] == "My machine"]
                self.assertEqual(len(mine), 1)
                self.assertTrue(mine[0]["fits"])

    def test_described_machine_refusals(self):
        for query, names in [("my-ram-gb=lots", "my-ram-gb"), ("my-ram-gb=0", "my-ram-gb"),
                             ("my-chip=GeForce%20RTX%204090&my-memory-gb=24", "my-chip"),
                             ("my-chip=Apple%20M3%20Pro", "my-memory-gb"), ("my-ram-gb=16&my-ram-type=ddr9", "my-ram-type"),
                             ("my-ram-gb=16&my-gpu=Apple%20M3%20Pro", "my-gpu"), ("my-memory-gb=16", "my-memory-gb")]:
            with self.subTest(query=query):
                status, _, body = self.request("GET", f"/api/plan?model={MODEL}&{query}")
                self.assertEqual(status, 400, body[:200])
                self.assertIn(names, json.loads(body)["error"])
        # Only plan and fit take a described machine; the row's file is never named by the caller.
        status, _, body = self.request("GET", f"/api/estimate?model={MODEL}&my-ram-gb=16")
        self.assertEqual(status, 400)
        status, _, body = self.request("GET", f"/api/plan?model={MODEL}&my-ram-gb=16&hardware-file=/etc/passwd")
        self.assertEqual(status, 400)
        self.assertIn("hardware-file", json.loads(body)["error"])
        self.assertEqual([f for f in os.listdir(tempfile.gettempdir()) if f.startswith("llmplan-machine-")], [])

    def test_message_catalog_has_every_sentence_in_every_language(self):
        # data/messages: each language has every key of the English catalog, with the same
        # placeholders (a translation that lost {gib} would print the braces).
        catalogs = {}
        for lang in ("en", "ar", "zh"):
            status, headers, body = self.request("GET", f"/data/messages/{lang}.json")
            self.assertEqual(status, 200)
            catalogs[lang] = json.loads(body)
        self.assertGreater(len(catalogs["en"]), 50)
        for lang in ("ar", "zh"):
            for key, english in catalogs["en"].items():
                with self.subTest(lang=lang, key=key):
                    self.assertIn(key, catalogs[lang])
                    self.assertEqual(sorted(re.findall(r"\{[a-z0-9_]+\}", english)),
                                     sorted(re.findall(r"\{[a-z0-9_]+\}", catalogs[lang][key])))
                    if re.search(r"\b[a-z]{3,} [a-z]{3,}\b", english):  # words, not only names, are translated
                        self.assertNotEqual(catalogs[lang][key], english)
        status, _, body = self.request("GET", "/data/ollama/names.csv")
        self.assertEqual(status, 200)
        self.assertTrue(body.startswith(b"family,size,hf_id"))

    def test_bad_option_is_400_with_the_cli_message(self):
        status, _, body = self.request("GET", f"/api/estimate?model={MODEL}&ctx=lots")
        rc, _, err = cli("estimate", MODEL, "--ctx", "lots")
        self.assertEqual((status, rc), (400, 2))
        self.assertEqual("llmplan: " + json.loads(body)["error"], err)

    def test_path_as_model_is_refused(self):
        for spec in ["/etc/passwd", "../../data/models/Qwen--Qwen2.5-0.5B-Instruct/config.json", CONFIG, "/tmp"]:
            with self.subTest(spec=spec):
                status, _, body = self.request("GET", "/api/estimate?model=" + spec)
                self.assertEqual(status, 400)
                self.assertIn("path", json.loads(body)["error"])
        status, _, body = self.request("GET", f"/api/plan?model={MODEL}&hardware-file=/etc/passwd")
        self.assertEqual(status, 400)
        self.assertIn("hardware-file", json.loads(body)["error"])
        # --mmproj names a projector file and --draft a second model: a file or a path either way.
        status, _, body = self.request("GET", f"/api/estimate?model={MODEL}&engine=llama.cpp&mmproj=/etc/passwd")
        self.assertEqual(status, 400)
        self.assertIn("mmproj", json.loads(body)["error"])
        status, _, body = self.request("GET", f"/api/estimate?model={MODEL}&draft=/etc/passwd")
        self.assertEqual(status, 400)
        self.assertIn("draft", json.loads(body)["error"])

    def test_probe_and_hub_names_are_refused(self):
        # `probe` would make the server measure its memory bandwidth and write its cache file; a
        # Hub name needs `serve --hub` (this server has none: catalog ids only, no network).
        status, _, body = self.request("GET", "/api/hardware?probe=1")
        self.assertEqual(status, 400)
        self.assertIn("probe", json.loads(body)["error"])
        for spec in ["hf:Qwen/Qwen2.5-7B-Instruct", "someorg/not-in-the-catalog"]:
            with self.subTest(spec=spec):
                status, _, body = self.request("GET", "/api/estimate?model=" + spec)
                self.assertEqual(status, 400)
                self.assertIn("--hub", json.loads(body)["error"])

    def test_unknown_route_is_404(self):
        for path in ["/api/rm", "/nope.html", "/../etc/passwd", "/api/estimate/x"]:
            with self.subTest(path=path):
                status, headers, body = self.request("GET", path)
                self.assertEqual(status, 404)
                self.assertIn("error", json.loads(body))
        status, _, _ = self.request("DELETE", "/api/estimate")
        self.assertIn(status, (400, 404, 405))

    def test_body_over_the_cap_is_413(self):
        status, _, _ = self.request("POST", "/api/estimate", body=b"{" + b" " * BODY_CAP + b"}",
                                    headers={"Content-Type": "application/json"})
        self.assertEqual(status, 413)

    def test_malformed_json_body_is_400(self):
        status, _, body = self.request("POST", "/api/estimate?file-name=config.json", body=b'{"n_layer": 4,')
        self.assertEqual(status, 400)
        self.assertIn("config.json", json.loads(body)["error"])

    def test_posted_config_equals_cli_on_the_file(self):
        with open(CONFIG, "rb") as f:
            config = f.read()
        status, _, body = self.request("POST", "/api/estimate?file-name=config.json&ctx=2048", body=config)
        rc, out, _ = cli("estimate", CONFIG, "--ctx", "2048")
        self.assertEqual((status, rc), (200, 0))
        got, want = json.loads(body), json.loads(out)
        self.assertEqual(got["devices"], want["devices"])
        self.assertEqual(got["model"]["n_params"], want["model"]["n_params"])

    def test_posted_gguf_header_equals_cli_on_the_file(self):
        with open(GGUF, "rb") as f:
            data = f.read()
        status, _, body = self.request("POST", f"/api/estimate?file-name=x.gguf&file-size={len(data)}", body=data)
        rc, out, _ = cli("estimate", GGUF)
        self.assertEqual((status, rc), (200, 0))
        self.assertEqual(json.loads(body)["devices"], json.loads(out)["devices"])

    def test_security_headers(self):
        status, headers, body = self.request("GET", "/", headers={"Origin": "http://evil.example"})
        self.assertEqual(status, 200)
        self.assertIn(b"<title>llmplan</title>", body)
        self.assertIn("script-src 'self'", headers["content-security-policy"])
        self.assertEqual(headers["x-content-type-options"], "nosniff")
        self.assertNotIn("access-control-allow-origin", headers)
        # The page revalidates (a new build's page is never served stale from the browser's cache).
        self.assertEqual(headers["cache-control"], "no-cache")
        # Every answer (the page, the API, a refusal, an unknown route) carries the same guards: no
        # framing by another site (clickjacking: CSP frame-ancestors, and X-Frame-Options for browsers
        # without CSP 2), no referrer; API answers are not stored (a model's figures are per request).
        for path, want_status, cache in (("/", 200, "no-cache"), ("/api/models?filter=qwen2.5-0.5b", 200, "no-store"),
                                         ("/api/estimate?model=qwen2.5-7b&ctx=0", 400, "no-store"),
                                         ("/no-such-page", 404, "no-store")):
            with self.subTest(path=path):
                status, headers, _ = self.request("GET", path)
                self.assertEqual(status, want_status)
                csp = [d.strip() for d in headers["content-security-policy"].split(";")]
                self.assertIn("frame-ancestors 'none'", csp)
                self.assertIn("default-src 'none'", csp)
                self.assertEqual(headers["x-frame-options"], "DENY")
                self.assertEqual(headers["referrer-policy"], "no-referrer")
                self.assertEqual(headers["x-content-type-options"], "nosniff")
                self.assertEqual(headers["cache-control"], cache)

    def test_dns_rebinding_host_is_403(self):
        status, _, _ = self.request("GET", "/api/models", headers={"Host": "evil.example:80"})
        self.assertEqual(status, 403)

    def test_sweep_and_why_come_from_the_library(self):
        status, _, body = self.request("GET", f"/api/sweep?model={MODEL}&over=ctx&hardware=rtx-4090")
        self.assertEqual(status, 200)
        s = json.loads(body)
        self.assertEqual(s["values"][0], 256)
        # RTX 4090: 24 GiB of GDDR6X less the CUDA driver's reserve = 23.58 GiB, what vLLM reports on
        # a 24 GB RTX 3090 (vLLM issue #10517; data/hardware/SOURCES.md "Memory as the device exposes it")
        self.assertAlmostEqual(s["capacity_bytes"] / 2**30, 23.58, places=2)
        i = s["values"].index(8192)
        _, out, _ = cli("estimate", MODEL, "--ctx", "8192")
        self.assertEqual(s["devices"][0]["total_bytes"][i], json.loads(out)["devices"][0]["total_bytes"])
        status, _, body = self.request("GET", f"/api/why?model={MODEL}")
        w = json.loads(body)
        # Qwen2.5-7B: 7,615,616,512 parameters x 16 bits / 8 (bf16) = 15,231,233,024 bytes
        self.assertEqual(w["rule_of_thumb"]["bytes"], 15231233024)
        self.assertEqual(w["devices"][0]["parts"][0]["part"], "weights")


class Hub(unittest.TestCase):
    """`serve --hub`: MODEL may be a Hub name, read from the stand-in Hub (tests/hub/fake_hub.py) as
    the CLI reads it; a path is still refused."""

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="llmplan-web-hub-")
        cls.hub = subprocess.Popen([sys.executable, os.path.join(REPO, "tests/hub/fake_hub.py")], stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, text=True)
        ports = json.loads(cls.hub.stdout.readline())
        env = {k: v for k, v in os.environ.items()
               if k not in ("HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "HF_TOKEN_PATH", "HF_HUB_OFFLINE",
                            "TRANSFORMERS_OFFLINE", "HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE", "MODELSCOPE_API_TOKEN")}
        url = f"http://127.0.0.1:{ports['hub']}"
        env.update(HF_ENDPOINT=url, MODELSCOPE_DOMAIN=url, XDG_CACHE_HOME=os.path.join(cls.dir, "xdg"),
                   HF_HOME=os.path.join(cls.dir, "hf"), MODELSCOPE_CACHE=os.path.join(cls.dir, "ms"))
        cls.env = env
        cls.server, cls.port = start_server("--hub", env=env)

    @classmethod
    def tearDownClass(cls):
        cls.server.terminate()
        cls.server.wait(10)
        cls.hub.stdin.close()
        cls.hub.wait(10)
        shutil.rmtree(cls.dir, ignore_errors=True)

    request = Api.request

    def test_hub_name_equals_cli_bytes(self):
        for spec in ["testorg/SmolLM2-135M", "hf:testorg/SmolLM2-135M"]:
            # The first read fetches the config and headers into llmplan's cache; the answer's origin
            # counts the requests made, so compare once both read the same cache.
            self.request("GET", f"/api/inspect?model={spec}")
            for command, query, args in [("inspect", "", []), ("estimate", "&ctx=2048", ["--ctx", "2048"])]:
                with self.subTest(spec=spec, command=command):
                    status, _, body = self.request("GET", f"/api/{command}?model={spec}{query}")
                    rc, out, err = cli(command, spec, *args, env=self.env)
                    self.assertEqual((status, rc), (200, 0), err)
                    self.assertEqual(body, out)
        # SmolLM2-135M: 134,515,008 parameters (the Hub's safetensors total for HuggingFaceTB/SmolLM2-135M)
        self.assertEqual(json.loads(body)["model"]["n_params"], 134515008)

    def test_path_is_refused_with_the_hub_on(self):
        for spec in ["/etc/passwd", "../../data/models/Qwen--Qwen2.5-0.5B-Instruct/config.json", CONFIG]:
            with self.subTest(spec=spec):
                status, _, body = self.request("GET", "/api/estimate?model=" + spec)
                self.assertEqual(status, 400)
                self.assertIn("path", json.loads(body)["error"])

    def test_missing_repo_is_400_with_the_cli_message(self):
        status, _, body = self.request("GET", "/api/estimate?model=testorg/nothing-here")
        rc, _, err = cli("estimate", "testorg/nothing-here", env=self.env)
        self.assertEqual((status, rc), (400, 2))
        self.assertEqual("llmplan: " + json.loads(body)["error"], err)


class Bind(unittest.TestCase):
    def test_non_loopback_bind_warns(self):
        p, _ = start_server("--host", "0.0.0.0")
        p.terminate()
        _, err = p.communicate(timeout=10)
        self.assertIn("warning", err)
        self.assertIn("not loopback", err)

    def test_loopback_bind_is_silent(self):
        p, _ = start_server()
        p.terminate()
        _, err = p.communicate(timeout=10)
        self.assertEqual(err, "")


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)

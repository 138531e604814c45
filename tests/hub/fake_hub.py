#!/usr/bin/env python3
"""A stand-in Hugging Face Hub (and ModelScope) on 127.0.0.1 for the Hub reader's tests.

It behaves as ../shared/research/hub-api.md describes the real one: model info with `sha`, a
paged tree listing (`Link: <...>; rel="next"`), `resolve` answering 307 with a relative Location
for small files and 302 to a second port (the "CDN") for weights, which serves Range requests with
206 + Content-Range and refuses a forwarded Authorization header; errors carry X-Error-Code. Weight
files are virtual: real headers (safetensors JSON, GGUF key/values and tensor infos, with the real
tensor shapes of Llama-3.1-70B, Llama-3.1-8B and SmolLM2-135M) followed by zeros up to the real size.

Repos under `hostile/<mode>` serve SmolLM2-135M misbehaving: slow, drop, norange, liar, loop,
ratelimited, flaky429, flaky500.

Prints one JSON line {"hub": port, "cdn": port} on stdout; exits when stdin closes. Counters:
GET /_stats (requests and body bytes sent, per path kind; ModelScope requests per Revision), GET /_reset.
Standard library only.
"""
import hashlib
import json
import os
import struct
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")
PAGE = 8  # tree entries per page: every repo with more files pages
GRANTED_TOKEN = "hf_granted_token_for_tests"


def sha_of(text):
    return hashlib.sha1(text.encode()).hexdigest()


class VFile:
    """A file whose first bytes are `head` and the rest zeros, `size` bytes in all."""

    def __init__(self, head, size=None, lfs=True):
        self.head = head
        self.size = len(head) if size is None else size
        self.lfs = lfs

    def slice(self, a, b):  # inclusive
        out = self.head[a:b + 1]
        if b + 1 > len(self.head):
            out += b"\0" * (b + 1 - max(a, len(self.head)))
        return out


# ---------------------------------------------------------------- safetensors
def safetensors_header(tensors, dtype_bytes=2, dtype="BF16"):
    """tensors: [(name, shape)] -> (header bytes with the 8-byte length, data bytes)."""
    h = {"__metadata__": {"format": "pt"}}
    off = 0
    for name, shape in tensors:
        n = dtype_bytes
        for d in shape:
            n *= d
        h[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [off, off + n]}
        off += n
    js = json.dumps(h, separators=(",", ":")).encode()
    js += b" " * (-len(js) % 8)
    return struct.pack("<Q", len(js)) + js, off


def llama_hf_tensors(c):
    hs, ff, v = c["hidden_size"], c["intermediate_size"], c["vocab_size"]
    kv = c["num_key_value_heads"] * (hs // c["num_attention_heads"])
    out = [("model.embed_tokens.weight", (v, hs))]
    for i in range(c["num_hidden_layers"]):
        p = f"model.layers.{i}."
        out += [(p + "input_layernorm.weight", (hs,)),
                (p + "self_attn.q_proj.weight", (hs, hs)),
                (p + "self_attn.k_proj.weight", (kv, hs)),
                (p + "self_attn.v_proj.weight", (kv, hs)),
                (p + "self_attn.o_proj.weight", (hs, hs)),
                (p + "post_attention_layernorm.weight", (hs,)),
                (p + "mlp.gate_proj.weight", (ff, hs)),
                (p + "mlp.up_proj.weight", (ff, hs)),
                (p + "mlp.down_proj.weight", (hs, ff))]
    out.append(("model.norm.weight", (hs,)))
    if not c.get("tie_word_embeddings", False):
        out.append(("lm_head.weight", (v, hs)))
    return out


def config_text(name):
    with open(os.path.join(DATA, name + ".config.json"), "rb") as f:
        return f.read()


def sharded_repo(config_name, n_shards):
    cfg = config_text(config_name)
    tensors = llama_hf_tensors(json.loads(cfg))
    files = {"config.json": VFile(cfg, lfs=False), "README.md": VFile(b"# test\n", lfs=False)}
    weight_map, total = {}, 0
    for s in range(n_shards):
        part = tensors[s * len(tensors) // n_shards:(s + 1) * len(tensors) // n_shards]
        fname = f"model-{s + 1:05d}-of-{n_shards:05d}.safetensors"
        head, data = safetensors_header(part)
        files[fname] = VFile(head, len(head) + data)
        total += data
        for name, _ in part:
            weight_map[name] = fname
    index = {"metadata": {"total_size": total}, "weight_map": weight_map}
    files["model.safetensors.index.json"] = VFile(json.dumps(index, indent=2).encode(), lfs=False)
    return files


def single_repo(config_name):
    cfg = config_text(config_name)
    head, data = safetensors_header(llama_hf_tensors(json.loads(cfg)))
    return {"config.json": VFile(cfg, lfs=False), "model.safetensors": VFile(head, len(head) + data)}


# ---------------------------------------------------------------- GGUF
T_U16, T_U32, T_I32, T_F32, T_STR, T_ARR = 2, 4, 5, 6, 8, 9
GGML = {"F32": (0, 1, 4), "Q8_0": (8, 32, 34), "Q4_K": (12, 256, 144), "Q6_K": (14, 256, 210)}


def g_str(s):
    b = s.encode()
    return struct.pack("<Q", len(b)) + b


def g_kv(key, typ, val):
    out = g_str(key) + struct.pack("<I", typ)
    if typ == T_U16:
        return out + struct.pack("<H", val)
    if typ == T_U32:
        return out + struct.pack("<I", val)
    if typ == T_I32:
        return out + struct.pack("<i", val)
    if typ == T_F32:
        return out + struct.pack("<f", val)
    if typ == T_STR:
        return out + g_str(val)
    elem, items = val
    body = b"".join(g_str(x) for x in items) if elem == T_STR else struct.pack(f"<{len(items)}i", *items)
    return out + struct.pack("<IQ", elem, len(items)) + body


def llama8b_gguf_tensors(recipe):
    """GGUF names, ne (innermost first), type: Llama-3.1-8B shapes; recipe(name) -> ggml type."""
    hs, ff, v, kv, n = 4096, 14336, 128256, 1024, 32
    t = [("token_embd.weight", (hs, v))]
    for i in range(n):
        p = f"blk.{i}."
        t += [(p + "attn_norm.weight", (hs,)), (p + "attn_q.weight", (hs, hs)), (p + "attn_k.weight", (hs, kv)),
              (p + "attn_v.weight", (hs, kv)), (p + "attn_output.weight", (hs, hs)), (p + "ffn_norm.weight", (hs,)),
              (p + "ffn_gate.weight", (hs, ff)), (p + "ffn_up.weight", (hs, ff)), (p + "ffn_down.weight", (ff, hs))]
    t += [("output_norm.weight", (hs,)), ("output.weight", (hs, v))]
    return [(name, ne, "F32" if len(ne) == 1 else recipe(name)) for name, ne in t]


_VOCAB = None


def vocab_kvs():
    global _VOCAB
    if _VOCAB is None:  # Llama-3's 128,256 tokens and 280,147 merges: a ~9 MB header
        # fixed-length strings, each a u64 length then its bytes (written fast: this runs per test process)
        toks = b"".join(b"\x09\0\0\0\0\0\0\0tok%06d" % i for i in range(128256))
        merges = b"".join(b"\x0f\0\0\0\0\0\0\0m%06d x%06d" % (i, i) for i in range(280147))
        arr = lambda key, elem, n, body: g_str(key) + struct.pack("<IIQ", T_ARR, elem, n) + body
        _VOCAB = (g_kv("tokenizer.ggml.model", T_STR, "gpt2") + g_kv("tokenizer.ggml.pre", T_STR, "llama-bpe")
                  + arr("tokenizer.ggml.tokens", T_STR, 128256, toks)
                  + arr("tokenizer.ggml.token_type", T_I32, 128256, struct.pack("<128256i", *([1] * 128256)))
                  + arr("tokenizer.ggml.merges", T_STR, 280147, merges), 5)
    return _VOCAB


def gguf_file(kvs, n_kv, tensors):
    """-> VFile: header + tensor infos, data virtual."""
    infos, off = b"", 0
    for name, ne, typ in tensors:
        tid, blk, bsz = GGML[typ]
        n = 1
        for d in ne:
            n *= d
        infos += g_str(name) + struct.pack("<I", len(ne)) + struct.pack(f"<{len(ne)}Q", *ne) + struct.pack("<IQ", tid, off)
        off += n // blk * bsz
        off += -off % 32
    head = b"GGUF" + struct.pack("<IQQ", 3, len(tensors), n_kv) + kvs + infos
    head += b"\0" * (-len(head) % 32)
    return VFile(head, len(head) + off)


def llama8b_kvs(file_type):
    kv = [("general.architecture", T_STR, "llama"), ("general.name", T_STR, "Llama 3.1 8B Instruct"),
          ("general.file_type", T_U32, file_type), ("llama.block_count", T_U32, 32),
          ("llama.context_length", T_U32, 131072), ("llama.embedding_length", T_U32, 4096),
          ("llama.feed_forward_length", T_U32, 14336), ("llama.attention.head_count", T_U32, 32),
          ("llama.attention.head_count_kv", T_U32, 8), ("llama.rope.freq_base", T_F32, 500000.0),
          ("llama.attention.layer_norm_rms_epsilon", T_F32, 1e-5), ("llama.rope.dimension_count", T_U32, 128),
          ("llama.vocab_size", T_U32, 128256)]
    return b"".join(g_kv(*x) for x in kv), len(kv)


def q4_k_m(name):  # llama.cpp's Q4_K_M keeps output, attn_v and ffn_down at Q6_K (a simplification)
    return "Q6_K" if name in ("output.weight",) or "attn_v" in name or "ffn_down" in name else "Q4_K"


def gguf_repo():
    vk, vn = vocab_kvs()
    files = {"README.md": VFile(b"# gguf\n", lfs=False)}
    kv, n = llama8b_kvs(15)  # LLAMA_FTYPE_MOSTLY_Q4_K_M
    files["Llama-3.1-8B-Instruct-Q4_K_M.gguf"] = gguf_file(kv + vk, n + vn, llama8b_gguf_tensors(q4_k_m))
    # Q8_0 split in two, in a folder named after the file stem (bartowski's layout)
    tensors = llama8b_gguf_tensors(lambda _: "Q8_0")
    half = 1 + 16 * 9
    kv, n = llama8b_kvs(7)  # LLAMA_FTYPE_MOSTLY_Q8_0
    split = lambda no: (g_kv("split.no", T_U16, no) + g_kv("split.count", T_U16, 2)
                        + g_kv("split.tensors.count", T_I32, len(tensors)))
    stem = "Llama-3.1-8B-Instruct-Q8_0/Llama-3.1-8B-Instruct-Q8_0"
    files[stem + "-00001-of-00002.gguf"] = gguf_file(kv + split(0) + vk, n + 3 + vn, tensors[:half])
    files[stem + "-00002-of-00002.gguf"] = gguf_file(split(1), 3, tensors[half:])
    # a vision projector sidecar, never "the model"
    files["mmproj-Llama-3.1-8B-Instruct-f16.gguf"] = VFile(b"GGUF" + b"\0" * 60, 1 << 20)
    return files


# ---------------------------------------------------------------- repos
class Repo:
    def __init__(self, name, make, gated=False):
        self.name, self.make, self.gated = name, make, gated
        self.sha = sha_of(name)
        self._files, self._lock = None, threading.Lock()

    @property
    def files(self):
        with self._lock:
            if self._files is None:
                self._files = self.make()
            return self._files


def edge_header_repo():
    """A safetensors header of exactly 100,000 bytes: one byte past what a first read of 100,000
    bytes holds after the 8-byte length (huggingface_hub issue #4602's nvidia/GLM-5-NVFP4 shard)."""
    cfg = config_text("SmolLM2-135M")
    head, data = safetensors_header(llama_hf_tensors(json.loads(cfg)))
    js = head[8:].rstrip(b" ")
    js += b" " * (100000 - len(js))
    return {"config.json": VFile(cfg, lfs=False), "model.safetensors": VFile(struct.pack("<Q", len(js)) + js,
                                                                              8 + len(js) + data)}


def huge_headers_repo():
    """Headers past the caps: a safetensors N of 200 MB, a GGUF string of 100 MB (zeros follow)."""
    st = struct.pack("<Q", 200_000_000) + b"{"
    gg = b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + struct.pack("<Q", 100_000_000) + b"general.x"
    return {"config.json": VFile(config_text("SmolLM2-135M"), lfs=False),
            "model.safetensors": VFile(st, 300_000_000), "big-Q8_0.gguf": VFile(gg, 200_000_000)}


REPOS = {r.name: r for r in [
    Repo("testorg/edge-header", edge_header_repo),
    Repo("hostile/huge", huge_headers_repo),
    Repo("testorg/Llama-3.1-70B-Instruct", lambda: sharded_repo("Llama-3.1-70B-Instruct", 30)),
    Repo("testorg/Llama-3.1-8B-Instruct-GGUF", gguf_repo),
    Repo("testorg/SmolLM2-135M", lambda: single_repo("SmolLM2-135M")),
    Repo("testorg/old-modelscope", lambda: single_repo("SmolLM2-135M")),
    Repo("testorg/gated-model", lambda: single_repo("SmolLM2-135M"), gated=True),
] + [Repo(f"hostile/{m}", lambda: single_repo("SmolLM2-135M"))
     for m in ("slow", "drop", "norange", "liar", "loop", "ratelimited", "flaky429", "flaky500")]}


class Stats:
    lock = threading.Lock()
    requests = 0
    bytes = 0
    kinds = {}
    seen = {}  # per key counters for the flaky modes
    revisions = {}  # ModelScope requests per Revision asked for

    @classmethod
    def add(cls, kind, n):
        with cls.lock:
            cls.requests += 1
            cls.bytes += n
            k = cls.kinds.setdefault(kind, [0, 0])
            k[0] += 1
            k[1] += n

    @classmethod
    def bump(cls, key):
        with cls.lock:
            cls.seen[key] = cls.seen.get(key, 0) + 1
            return cls.seen[key]


PORTS = {}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    is_cdn = False

    def log_message(self, *a):
        pass

    def send(self, status, body=b"", headers=None, kind="api"):
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        Stats.add(kind, len(body))  # before the client can have it and ask for the counts
        self.end_headers()
        self.wfile.write(body)

    def error(self, status, code=None, msg="", extra=None):
        h = {"Content-Type": "application/json"}
        if code:
            h["X-Error-Code"] = code
        if msg:
            h["X-Error-Message"] = msg
        h.update(extra or {})
        self.send(status, json.dumps({"error": msg}).encode(), h)

    def token(self):
        a = self.headers.get("Authorization", "")
        return a[7:] if a.startswith("Bearer ") else None

    def do_GET(self):
        try:
            (self.cdn if self.is_cdn else self.hub)()
        except (BrokenPipeError, ConnectionResetError):
            pass

    # ------------------------------------------------------------ the Hub
    def hub(self):
        u = urllib.parse.urlsplit(self.path)
        q = urllib.parse.parse_qs(u.query)
        parts = [urllib.parse.unquote(p) for p in u.path.split("/")[1:]]
        if u.path == "/_stats":
            with Stats.lock:
                body = json.dumps({"requests": Stats.requests, "bytes": Stats.bytes, "kinds": Stats.kinds,
                                   "revisions": Stats.revisions}).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if u.path == "/_reset":
            with Stats.lock:
                Stats.requests, Stats.bytes, Stats.kinds, Stats.revisions = 0, 0, {}, {}
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if parts[:3] == ["api", "v1", "models"] and len(parts) == 6 and parts[5] == "commits":
            return self.ms_commits(REPOS.get(parts[3] + "/" + parts[4]), q)
        if parts[:3] == ["api", "v1", "models"] and len(parts) >= 6 and parts[5] == "repo":
            return self.modelscope(REPOS.get(parts[3] + "/" + parts[4]), parts[6:], q)
        if parts[:2] == ["api", "models"] and len(parts) >= 6 and parts[4] in ("revision", "tree"):
            repo = REPOS.get(parts[2] + "/" + parts[3])
            if repo is None:
                return self.no_repo()
            if parts[4] == "revision":
                return self.info(repo, parts[5])
            return self.tree(repo, parts[5], q)
        if parts[:3] == ["api", "resolve-cache", "models"] and len(parts) >= 7:
            repo = REPOS.get(parts[3] + "/" + parts[4])
            f = repo.files.get("/".join(parts[6:])) if repo else None
            if f is None:
                return self.error(404, "EntryNotFound", "not found")
            return self.send(200, f.head, {"X-Repo-Commit": repo.sha, "ETag": '"x"'}, kind="small")
        if len(parts) >= 5 and parts[2] == "resolve":
            repo = REPOS.get(parts[0] + "/" + parts[1])
            if repo is None:
                return self.no_repo()
            return self.resolve(repo, parts[3], "/".join(parts[4:]))
        self.error(404, None, "no route")

    def no_repo(self):
        # 401 without a token, so that a private repo's existence does not leak (hub-api.md §2)
        self.error(404 if self.token() else 401, "RepoNotFound", "Repository not found")

    def rev_ok(self, repo, rev):
        return rev in ("main", repo.sha)

    def info(self, repo, rev):
        mode = repo.name.split("/")[1] if repo.name.startswith("hostile/") else ""
        if mode == "slow":
            time.sleep(20)  # far past the test's 1 s timeout, so a client that waits for it is caught
        if mode == "ratelimited":
            return self.error(429, None, "rate limited",
                              {"RateLimit": '"api";r=0;t=300', "RateLimit-Policy": '"fixed window";"api";q=500;w=300'})
        if mode in ("flaky429", "flaky500") and Stats.bump(repo.name) == 1:
            if mode == "flaky429":
                return self.error(429, None, "slow down", {"Retry-After": "0"})
            return self.error(503, None, "try later")
        if not self.rev_ok(repo, rev):
            return self.error(404, "RevisionNotFound", f"Invalid rev id: {rev}")
        body = {"_id": "x", "id": repo.name, "sha": repo.sha, "gated": "manual" if repo.gated else False}
        if repo.gated:  # the Hub's own count, from the safetensors headers it read (SmolLM2-135M's)
            body["safetensors"] = {"parameters": {"BF16": 134515008}, "total": 134515008}
        self.send(200, json.dumps(body).encode(), {"Content-Type": "application/json"})

    def tree(self, repo, rev, q):
        if not self.rev_ok(repo, rev):
            return self.error(404, "RevisionNotFound", f"Invalid rev id: {rev}")
        names = sorted(repo.files)
        start = int(q.get("cursor", ["0"])[0])
        page = names[start:start + PAGE]
        entries = []
        for n in page:
            f = repo.files[n]
            e = {"type": "file", "oid": sha_of(n), "size": f.size, "path": n}
            if f.lfs:
                e["lfs"] = {"oid": hashlib.sha256(n.encode()).hexdigest(), "size": f.size, "pointerSize": 134}
            entries.append(e)
        dirs = sorted({n.rsplit("/", 1)[0] for n in page if "/" in n})
        entries += [{"type": "directory", "oid": sha_of(d), "size": 0, "path": d} for d in dirs]
        h = {"Content-Type": "application/json"}
        if start + PAGE < len(names):
            h["Link"] = (f'<http://127.0.0.1:{PORTS["hub"]}/api/models/{repo.name}/tree/{rev}'
                         f'?recursive=true&expand=false&cursor={start + PAGE}>; rel="next"')
        self.send(200, json.dumps(entries).encode(), h)

    def resolve(self, repo, rev, path):
        mode = repo.name.split("/")[1] if repo.name.startswith("hostile/") else ""
        if not self.rev_ok(repo, rev):
            return self.error(404, "RevisionNotFound", f"Invalid rev id: {rev}")
        if repo.gated:
            tok = self.token()
            if tok is None:
                return self.error(401, "GatedRepo", f"Access to model {repo.name} is restricted. Please log in.")
            if tok != GRANTED_TOKEN:
                return self.error(403, "GatedRepo", f"Access to model {repo.name} is restricted and you are not "
                                                    "in the authorized list.")
        f = repo.files.get(path)
        if f is None:
            return self.error(404, "EntryNotFound", f"{path} does not exist on \"{rev}\"",
                              {"X-Repo-Commit": repo.sha})
        if mode == "loop":
            return self.send(302, b"", {"Location": self.path}, kind="redirect")
        h = {"X-Repo-Commit": repo.sha, "X-Linked-Size": str(f.size), "X-Linked-Etag": '"e"'}
        if not f.lfs:  # small files: 307 relative to the resolve cache
            h["Location"] = f"/api/resolve-cache/models/{repo.name}/{repo.sha}/{urllib.parse.quote(path)}?etag=x"
            return self.send(307, b"", h, kind="redirect")
        h["Location"] = (f"http://127.0.0.1:{PORTS['cdn']}/blobs/{repo.name}/{urllib.parse.quote(path)}"
                         f"?X-Xet-Cas-Uid=public&Expires=9999999999")
        self.send(302, b"x" * 64, h, kind="redirect")  # a small body, as the Hub's

    def ms_commits(self, repo, q):
        """ModelScope's commit history, newest first (modelscope hub/api.py list_repo_commits:
        {"Code":200,"Data":{"Commit":[{"Id","ShortId","Title",...}]},"TotalCount"}). `testorg/old-modelscope`
        plays a server without the route (404)."""
        if repo is None or repo.name == "testorg/old-modelscope" or q.get("Ref", ["master"])[0] != "master":
            return self.send(404, json.dumps({"Code": 10010205001, "Message": "not found"}).encode())
        commit = {"Id": repo.sha, "ShortId": repo.sha[:8], "Title": "upload", "CommittedDate": 1733200000}
        self.send(200, json.dumps({"Code": 200, "Data": {"Commit": [commit]}, "TotalCount": 1}).encode())

    def modelscope(self, repo, rest, q):
        """ModelScope's API (hub-api.md §7): Code 200 in the body; files served directly, with Range.
        Revision is the branch or its commit; requests per Revision are counted in /_stats "revisions"."""
        rev = q.get("Revision", ["master"])[0]
        with Stats.lock:
            Stats.revisions[rev] = Stats.revisions.get(rev, 0) + 1
        if repo is None or rev not in ("master", repo.sha):
            return self.send(404, json.dumps({"Code": 10010205001, "Message": "model not found"}).encode())
        if rest == ["files"]:
            files = [{"Name": n.rsplit("/", 1)[-1], "Path": n, "Type": "blob", "Size": f.size, "Revision": repo.sha}
                     for n, f in sorted(repo.files.items())]
            return self.send(200, json.dumps({"Code": 200, "Data": {"Files": files}, "Message": "success"}).encode())
        f = repo.files.get(q.get("FilePath", [""])[0])
        if f is None:
            return self.send(404, json.dumps({"Code": 404, "Message": "file not found"}).encode())
        rng = self.headers.get("Range", "")
        if not rng.startswith("bytes="):
            return self.whole(f)
        a, b = (int(x) for x in rng[6:].split("-"))
        b = min(b, f.size - 1)
        self.send(206, f.slice(a, b), {"Content-Range": f"bytes {a}-{b}/{f.size}"}, kind="cdn")

    # ------------------------------------------------------------ the CDN
    def cdn(self):
        u = urllib.parse.urlsplit(self.path)
        parts = [urllib.parse.unquote(p) for p in u.path.split("/")[1:]]
        if "Authorization" in self.headers:  # signed URLs take no credentials (S3/CloudFront refuse them)
            return self.send(400, b"Only one auth mechanism allowed", kind="cdn")
        repo = REPOS.get("/".join(parts[1:3])) if len(parts) > 3 else None
        f = repo.files.get("/".join(parts[3:])) if repo else None
        if f is None:
            return self.send(404, b"NoSuchKey", kind="cdn")
        mode = repo.name.split("/")[1] if repo.name.startswith("hostile/") else ""
        rng = self.headers.get("Range", "")
        if mode == "norange" or not rng.startswith("bytes="):
            return self.whole(f)
        a, b = rng[6:].split("-")
        a, b = int(a), min(int(b), f.size - 1)
        if a >= f.size:
            return self.send(416, b"", {"Content-Range": f"bytes */{f.size}"}, kind="cdn")
        body = f.slice(a, b)
        total = f.size + 1000 if mode == "liar" else f.size
        h = {"Content-Range": f"bytes {a}-{b}/{total}", "Accept-Ranges": "bytes"}
        if mode == "drop":  # promise the range, send a little, hang up
            self.send_response(206)
            self.send_header("Content-Range", h["Content-Range"])
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            Stats.add("cdn", 16)
            self.wfile.write(body[:16])
            self.wfile.flush()
            self.connection.shutdown(2)
            self.close_connection = True
            return
        self.send(206, body, h, kind="cdn")

    def whole(self, f):
        """200 with the whole (virtual) file, streamed until the client hangs up."""
        self.send_response(200)
        self.send_header("Content-Length", str(f.size))
        self.end_headers()
        sent, chunk = 0, 1 << 16
        try:
            while sent < f.size:
                piece = f.slice(sent, min(f.size, sent + chunk) - 1)
                self.wfile.write(piece)
                sent += len(piece)
        finally:
            Stats.add("cdn", sent)
            self.close_connection = True


class CdnHandler(Handler):
    is_cdn = True


def main():
    hub = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    cdn = ThreadingHTTPServer(("127.0.0.1", 0), CdnHandler)
    hub.daemon_threads = cdn.daemon_threads = True
    PORTS["hub"], PORTS["cdn"] = hub.server_address[1], cdn.server_address[1]
    for s in (hub, cdn):
        threading.Thread(target=s.serve_forever, daemon=True).start()
    print(json.dumps(PORTS), flush=True)
    sys.stdin.read()  # until the test closes our stdin (or dies)
    os._exit(0)


if __name__ == "__main__":
    main()

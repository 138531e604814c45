#!/usr/bin/env python3
"""Write a synthetic GGUF v3 file of a real architecture (llama / qwen2) from a HF config.json.

All tensor data is zero. The file is sparse: the writer seeks past the data region and writes
one byte at the end, so a 1 GiB model costs ~0 disk blocks. All-zero bytes are valid data for
F32/F16 (0.0) and for Q8_0/Q4_0 (scale d = 0 -> every weight decodes to 0).

Tokenizer: the tokenizer.* keys are copied from a vocab-only fixture (default
tests/data/gguf/ggml-vocab-gpt-2.gguf, 50257 tokens, BPE "gpt2"). The model's vocab is set to
the fixture's token count (not the config's vocab_size), because llama.cpp checks that
token_embd has exactly as many rows as the tokenizer has tokens. A copy of config.json with
vocab_size patched to that count is written next to the GGUF so llmplan estimates the same model.

Standard library only.

usage: make_gguf.py CONFIG_DIR OUT_DIR --type f16|q8_0|q4_0 [--vocab FIXTURE.gguf]
writes OUT_DIR/model-<type>.gguf and OUT_DIR/config/config.json
"""
import argparse
import json
import os
import struct
import sys

GGUF_MAGIC = b"GGUF"
GGUF_VERSION = 3
ALIGNMENT = 32  # GGUF default general.alignment (ggml/docs/gguf.md)

# GGUF metadata value types (ggml/docs/gguf.md, enum gguf_metadata_value_type)
T_U8, T_I8, T_U16, T_I16, T_U32, T_I32, T_F32, T_BOOL, T_STR, T_ARR, T_U64, T_I64, T_F64 = range(13)
SCALAR_FMT = {T_U8: "<B", T_I8: "<b", T_U16: "<H", T_I16: "<h", T_U32: "<I", T_I32: "<i",
              T_F32: "<f", T_BOOL: "<?", T_U64: "<Q", T_I64: "<q", T_F64: "<d"}

# ggml_type ids, block size (elements) and bytes per block (ggml/include/ggml.h, ggml.c type_traits)
GGML_TYPES = {
    "f32": (0, 1, 4),
    "f16": (1, 1, 2),
    "q4_0": (2, 32, 18),   # fp16 scale + 32 x 4-bit
    "q8_0": (8, 32, 34),   # fp16 scale + 32 x int8
}
# llama_ftype for general.file_type (llama.h): ALL_F32=0, MOSTLY_F16=1, MOSTLY_Q4_0=2, MOSTLY_Q8_0=7
FILE_TYPE = {"f16": 1, "q4_0": 2, "q8_0": 7}


# ---------------------------------------------------------------- reading (tokenizer KVs)
class Reader:
    def __init__(self, data):
        self.d, self.p = data, 0

    def take(self, n):
        if self.p + n > len(self.d):
            raise ValueError("truncated GGUF at offset %d" % self.p)
        b = self.d[self.p:self.p + n]
        self.p += n
        return b

    def scalar(self, t):
        fmt = SCALAR_FMT[t]
        return struct.unpack(fmt, self.take(struct.calcsize(fmt)))[0]

    def string(self):
        n = struct.unpack("<Q", self.take(8))[0]
        return self.take(n).decode("utf-8", errors="surrogateescape")

    def value(self, t):
        if t == T_STR:
            return self.string()
        if t == T_ARR:
            et = self.scalar(T_U32)
            n = self.scalar(T_U64)
            return (et, [self.value(et) for _ in range(n)])
        return self.scalar(t)


def read_kvs(path):
    with open(path, "rb") as f:
        r = Reader(f.read())
    if r.take(4) != GGUF_MAGIC:
        raise ValueError("%s: not a GGUF file" % path)
    r.scalar(T_U32)  # version
    r.scalar(T_U64)  # n_tensors
    n_kv = r.scalar(T_U64)
    kvs = []
    for _ in range(n_kv):
        k = r.string()
        t = r.scalar(T_U32)
        kvs.append((k, t, r.value(t)))
    return kvs


# ---------------------------------------------------------------- writing
def enc_str(s):
    b = s.encode("utf-8", errors="surrogateescape")
    return struct.pack("<Q", len(b)) + b


def enc_value(t, v):
    if t == T_STR:
        return enc_str(v)
    if t == T_ARR:
        et, items = v
        return struct.pack("<IQ", et, len(items)) + b"".join(enc_value(et, x) for x in items)
    return struct.pack(SCALAR_FMT[t], v)


def tensor_bytes(ne, type_name):
    """Bytes of a tensor with GGUF shape ne (innermost first) in type_name."""
    _, blk, bpb = GGML_TYPES[type_name]
    if ne[0] % blk:
        raise ValueError("row of %d elements is not a multiple of the %s block %d" % (ne[0], type_name, blk))
    n = 1
    for x in ne:
        n *= x
    return n // blk * bpb


def tensor_list(cfg, arch, n_vocab, wtype):
    """(name, ne innermost-first, type) as llama.cpp's llm_build_llama / qwen2 load them."""
    n_embd = cfg["hidden_size"]
    n_head = cfg["num_attention_heads"]
    n_head_kv = cfg.get("num_key_value_heads", n_head)
    head_dim = cfg.get("head_dim") or n_embd // n_head
    n_ff = cfg["intermediate_size"]
    q_out, kv_out = n_head * head_dim, n_head_kv * head_dim
    qkv_bias = arch == "qwen2" or cfg.get("attention_bias", False)
    t = [("token_embd.weight", [n_embd, n_vocab], wtype)]
    for i in range(cfg["num_hidden_layers"]):
        b = "blk.%d." % i
        t.append((b + "attn_norm.weight", [n_embd], "f32"))
        t.append((b + "attn_q.weight", [n_embd, q_out], wtype))
        t.append((b + "attn_k.weight", [n_embd, kv_out], wtype))
        t.append((b + "attn_v.weight", [n_embd, kv_out], wtype))
        if qkv_bias:
            t.append((b + "attn_q.bias", [q_out], "f32"))
            t.append((b + "attn_k.bias", [kv_out], "f32"))
            t.append((b + "attn_v.bias", [kv_out], "f32"))
        t.append((b + "attn_output.weight", [q_out, n_embd], wtype))
        t.append((b + "ffn_norm.weight", [n_embd], "f32"))
        t.append((b + "ffn_gate.weight", [n_embd, n_ff], wtype))
        t.append((b + "ffn_up.weight", [n_embd, n_ff], wtype))
        t.append((b + "ffn_down.weight", [n_ff, n_embd], wtype))
    t.append(("output_norm.weight", [n_embd], "f32"))
    if not cfg.get("tie_word_embeddings", False):
        t.append(("output.weight", [n_embd, n_vocab], wtype))
    return t, head_dim


def build(cfg, vocab_kvs, wtype):
    mt = cfg.get("model_type")
    arch = {"llama": "llama", "qwen2": "qwen2"}.get(mt)
    if arch is None:
        raise ValueError("model_type %r: only llama and qwen2 are written" % mt)
    tok = [kv for kv in vocab_kvs if kv[0].startswith("tokenizer.")]
    tokens = [kv for kv in tok if kv[0] == "tokenizer.ggml.tokens"]
    if not tokens:
        raise ValueError("vocab fixture has no tokenizer.ggml.tokens")
    n_vocab = len(tokens[0][2][1])
    tensors, head_dim = tensor_list(cfg, arch, n_vocab, wtype)
    kvs = [
        ("general.architecture", T_STR, arch),
        ("general.name", T_STR, "synthetic-" + cfg.get("_name_or_path", arch)),
        ("general.file_type", T_U32, FILE_TYPE[wtype]),
        ("general.alignment", T_U32, ALIGNMENT),
        (arch + ".context_length", T_U32, int(cfg.get("max_position_embeddings", 4096))),
        (arch + ".embedding_length", T_U32, cfg["hidden_size"]),
        (arch + ".block_count", T_U32, cfg["num_hidden_layers"]),
        (arch + ".feed_forward_length", T_U32, cfg["intermediate_size"]),
        (arch + ".attention.head_count", T_U32, cfg["num_attention_heads"]),
        (arch + ".attention.head_count_kv", T_U32,
         cfg.get("num_key_value_heads", cfg["num_attention_heads"])),
        (arch + ".attention.key_length", T_U32, head_dim),
        (arch + ".attention.value_length", T_U32, head_dim),
        (arch + ".rope.dimension_count", T_U32, head_dim),
        (arch + ".rope.freq_base", T_F32, float(cfg.get("rope_theta", 10000.0))),
        (arch + ".attention.layer_norm_rms_epsilon", T_F32, float(cfg.get("rms_norm_eps", 1e-6))),
        (arch + ".vocab_size", T_U32, n_vocab),
    ] + tok
    return kvs, tensors, n_vocab


def write(path, kvs, tensors):
    head = bytearray()
    head += GGUF_MAGIC + struct.pack("<IQQ", GGUF_VERSION, len(tensors), len(kvs))
    for k, t, v in kvs:
        head += enc_str(k) + struct.pack("<I", t) + enc_value(t, v)
    off = 0
    for name, ne, ty in tensors:
        head += enc_str(name) + struct.pack("<I", len(ne)) + b"".join(struct.pack("<Q", x) for x in ne)
        head += struct.pack("<IQ", GGML_TYPES[ty][0], off)
        off += tensor_bytes(ne, ty)
        off = (off + ALIGNMENT - 1) // ALIGNMENT * ALIGNMENT  # each tensor starts aligned
    head += b"\0" * ((-len(head)) % ALIGNMENT)  # data section starts aligned
    with open(path, "wb") as f:
        f.write(head)
        if off:
            f.seek(len(head) + off - 1)  # sparse: leave the zeros as a hole
            f.write(b"\0")
    return len(head) + off, off


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("config_dir")
    ap.add_argument("out_dir")
    ap.add_argument("--type", default="f16", choices=sorted(FILE_TYPE))
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--vocab", default=os.path.join(here, "../../tests/data/gguf/ggml-vocab-gpt-2.gguf"))
    a = ap.parse_args()
    with open(os.path.join(a.config_dir, "config.json")) as f:
        cfg = json.load(f)
    kvs, tensors, n_vocab = build(cfg, read_kvs(a.vocab), a.type)
    os.makedirs(os.path.join(a.out_dir, "config"), exist_ok=True)
    out = os.path.join(a.out_dir, "model-%s.gguf" % a.type)
    size, data = write(out, kvs, tensors)
    cfg2 = dict(cfg, vocab_size=n_vocab)
    with open(os.path.join(a.out_dir, "config", "config.json"), "w") as f:
        json.dump(cfg2, f, indent=1)
    json.dump({"gguf": out, "file_bytes": size, "tensor_data_bytes": data, "n_vocab": n_vocab,
               "n_tensors": len(tensors)}, sys.stdout)
    print()


if __name__ == "__main__":
    main()

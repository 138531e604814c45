#!/usr/bin/env python3
"""Replays the CUDA allocations of loading a checkpoint into bitsandbytes NF4 through PyTorch's caching allocator,
and prints the reserved-but-free memory the load leaves behind (bench/accuracy_train.md, eighth pass).

    python3 bench/nf4_load_replay.py

Question it answers: ms-swift's NF4 QLoRA runs of Qwen-7B/14B/72B (../shared/truth/ms_swift_benchmark.json #3, #7,
#11) reserve 64-74 MiB a layer more than their GPTQ-Int4 twins (#1, #5, #9). A GPTQ checkpoint loads packed; an
NF4 one is quantized on load: each weight is copied to the GPU in 16 bits, quantized, and the 16-bit copy freed
(transformers `set_module_quantized_tensor_to_device` -> bitsandbytes 0.41 `Params4bit.cuda`: `w =
self.data.contiguous().half().cuda(device)`, then `quantize_4bit(w, ...)`: fp32 absmax, the packed uint8 output,
and with double quantization `absmax.mean()`, the 256-entry code, the second-level absmax and the uint8 absmax).
Does the caching allocator keep the freed 16-bit copies as blocks it cannot reuse?

The allocator model is PyTorch 2.1's CUDACachingAllocator (c10/cuda/CUDACachingAllocator.cpp @ eb42ad6e) for one
stream, without max_split_size or expandable segments: sizes rounded up to 512 bytes; requests up to 1 MiB from the
small pool (2 MiB segments), larger ones from the large pool (a 20 MiB segment under 10 MiB, else the size rounded
up to 2 MiB); best fit (the smallest free block at least as large, lowest address on ties); a block is split when
more than 1 MiB (large pool) or 512 bytes (small) would be left; a freed block merges with free neighbours of its
segment; nothing is returned to the device. Tensors load in the safetensors order (names sorted).

Measured on 2026-12-06: 4.9-6.7 MiB a layer of free blocks after the load (Qwen-7B 6.0, 14B 4.9, 72B 6.7), a
tenth of the 64-74 MiB the runs show: the load-time quantization is not the mechanism. Standard library only.
"""
from __future__ import annotations

import bisect

MIB = 1 << 20
SMALL_SIZE = MIB  # kSmallSize
SMALL_BUFFER = 2 * MIB  # kSmallBuffer
LARGE_BUFFER = 20 * MIB  # kLargeBuffer
MIN_LARGE_ALLOC = 10 * MIB  # kMinLargeAlloc
ROUND_LARGE = 2 * MIB  # kRoundLarge


def round_size(n: int) -> int:
    return 512 if n < 512 else 512 * ((n + 511) // 512)


def segment_size(n: int) -> int:
    if n <= SMALL_SIZE:
        return SMALL_BUFFER
    if n < MIN_LARGE_ALLOC:
        return LARGE_BUFFER
    return ROUND_LARGE * ((n + ROUND_LARGE - 1) // ROUND_LARGE)


class Block:
    __slots__ = ("addr", "size", "used", "prev", "next", "small")


class CachingAllocator:
    def __init__(self) -> None:
        self.free = {True: [], False: []}  # per pool: sorted (size, addr, id, block)
        self.reserved = 0
        self.allocated = 0
        self.next_addr = 0

    def _insert(self, b: Block) -> None:
        bisect.insort(self.free[b.small], (b.size, b.addr, id(b), b))

    def _remove(self, b: Block) -> None:
        pool = self.free[b.small]
        i = bisect.bisect_left(pool, (b.size, b.addr, id(b)))
        del pool[i]

    def malloc(self, n: int) -> Block:
        n = round_size(n)
        small = n <= SMALL_SIZE
        pool = self.free[small]
        i = bisect.bisect_left(pool, (n, -1, -1))
        if i < len(pool):
            b = pool[i][3]
            self._remove(b)
        else:
            b = Block()
            b.addr, b.size, b.prev, b.next, b.small = self.next_addr, segment_size(n), None, None, small
            self.next_addr += b.size + (1 << 40)  # segments never adjoin
            self.reserved += b.size
        rest = b.size - n
        if (small and rest >= 512) or (not small and rest > SMALL_SIZE):
            r = Block()
            r.addr, r.size, r.used, r.small = b.addr + n, rest, False, small
            r.prev, r.next = b, b.next
            if b.next is not None:
                b.next.prev = r
            b.next, b.size = r, n
            self._insert(r)
        b.used = True
        self.allocated += b.size
        return b

    def release(self, b: Block) -> None:
        self.allocated -= b.size
        b.used = False
        if b.prev is not None and not b.prev.used:
            p = b.prev
            self._remove(p)
            p.size += b.size
            p.next = b.next
            if b.next is not None:
                b.next.prev = p
            b = p
        if b.next is not None and not b.next.used:
            q = b.next
            self._remove(q)
            b.size += q.size
            b.next = q.next
            if q.next is not None:
                q.next.prev = b
        self._insert(b)


def qwen1_tensors(hidden: int, ffn_half: int, layers: int, vocab: int):
    """(name, elements, quantized) in safetensors order for a Qwen-1 checkpoint (c_attn fused with a bias)."""
    out = [("lm_head.weight", vocab * hidden, False)]
    for i in sorted(range(layers), key=str):
        p = f"transformer.h.{i}."
        out += [
            (p + "attn.c_attn.bias", 3 * hidden, False),
            (p + "attn.c_attn.weight", 3 * hidden * hidden, True),
            (p + "attn.c_proj.weight", hidden * hidden, True),
            (p + "ln_1.weight", hidden, False),
            (p + "ln_2.weight", hidden, False),
            (p + "mlp.c_proj.weight", hidden * ffn_half, True),
            (p + "mlp.w1.weight", hidden * ffn_half, True),
            (p + "mlp.w2.weight", hidden * ffn_half, True),
        ]
    return out + [("transformer.ln_f.weight", hidden, False), ("transformer.wte.weight", vocab * hidden, False)]


def load_nf4(tensors, a: CachingAllocator) -> None:
    kept = []
    for _, n, quantized in tensors:
        if not quantized:
            kept.append(a.malloc(2 * n))  # 16-bit, straight to the device
            continue
        w = a.malloc(2 * n)  # .half().cuda()
        blocks = (n + 63) // 64  # blocksize 64
        absmax = a.malloc(4 * blocks)
        packed = a.malloc((n + 1) // 2)
        offset = a.malloc(4)  # absmax.mean()
        code = a.malloc(256 * 4)  # create_dynamic_map().to(device)
        absmax2 = a.malloc(4 * ((blocks + 255) // 256))  # blocksize 256
        qabsmax = a.malloc(blocks)
        a.release(absmax)
        a.release(code)
        kept += [offset, absmax2, qabsmax, packed]
        a.release(w)


def main() -> None:
    # config.json of Qwen/Qwen-7B-Chat, Qwen-14B-Chat, Qwen-72B-Chat (../shared/models): hidden_size,
    # intermediate_size / 2 (w1, w2 each), num_hidden_layers, vocab_size.
    models = {
        "Qwen-7B": (4096, 11008, 32, 151936),
        "Qwen-14B": (5120, 13696, 40, 152064),
        "Qwen-72B": (8192, 24576, 80, 152064),
    }
    for name, (h, f, layers, vocab) in models.items():
        a = CachingAllocator()
        load_nf4(qwen1_tensors(h, f, layers, vocab), a)
        free = a.reserved - a.allocated
        print(f"{name:9} reserved {a.reserved / MIB:8.0f} MiB  allocated {a.allocated / MIB:8.0f} MiB  "
              f"free in segments {free / MIB:6.0f} MiB = {free / MIB / layers:4.1f} MiB a layer")


if __name__ == "__main__":
    main()

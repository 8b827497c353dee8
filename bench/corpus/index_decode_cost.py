"""What does the flat index decode of generic pointwise/index kernels cost on this GPU? (issue #13 review, patterns A4, B1, D1, D2)
Self-written kernels in the shape of a generated rank-2/rank-4 copy (not library code):
 A  flat decode (// and % by run-time sizes), run-time strides (not specialized, as `: int` params)
 B  the same decode, unit inner strides known to the compiler (constexpr 1)
 C  2-D grid: rows from program_id, columns from arange, only the broadcast % per element
 D  rank-4 flat decode (3 div/mod pairs per element), run-time strides
 E  torch copy of the same bytes (the copy ceiling)
Reports GB/s counting bytes read + written, median of do_bench (L2 flushed)."""
import json, sys
import torch, triton, triton.language as tl

@triton.jit(do_not_specialize=["s_in0", "s_in1", "s_out0", "s_out1"])
def decode_rt(inp, out, s_in0, s_in1, s_out0, s_out1, n1, in_n0, in_n1, total, BLOCK: tl.constexpr):
    t = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = t < total
    i1 = t % n1
    i0 = t // n1
    v = tl.load(inp + (i0 % in_n0) * s_in0 + (i1 % in_n1) * s_in1, mask=m)
    tl.store(out + i0 * s_out0 + i1 * s_out1, v, mask=m)

@triton.jit
def decode_unit(inp, out, s_in0, s_out0, n1, in_n0, in_n1, total, BLOCK: tl.constexpr):
    t = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = t < total
    i1 = t % n1
    i0 = t // n1
    v = tl.load(inp + (i0 % in_n0) * s_in0 + (i1 % in_n1), mask=m)
    tl.store(out + i0 * s_out0 + i1, v, mask=m)

@triton.jit
def rows_2d(inp, out, s_in0, s_out0, n1, in_n0, in_n1, BLOCK: tl.constexpr):
    r = tl.program_id(1)
    c = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = c < n1
    v = tl.load(inp + (r % in_n0) * s_in0 + c % in_n1, mask=m)
    tl.store(out + r * s_out0 + c, v, mask=m)

@triton.jit(do_not_specialize=["a1", "a2", "a3", "b0", "b1", "b2", "b3"])
def decode_rank4(inp, out, n1, n2, n3, a0, a1, a2, a3, b0, b1, b2, b3, total, BLOCK: tl.constexpr):
    t = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = t < total
    i3 = t % n3
    t = t // n3
    i2 = t % n2
    t = t // n2
    i1 = t % n1
    i0 = t // n1
    v = tl.load(inp + i0 * a0 + i1 * a1 + i2 * a2 + i3 * a3, mask=m)
    tl.store(out + i0 * b0 + i1 * b1 + i2 * b2 + i3 * b3, v, mask=m)

def gbps(fn, nbytes):
    ms = triton.testing.do_bench(fn, warmup=25, rep=200, return_mode="median")
    return round(nbytes / ms / 1e6, 1), round(ms * 1e3, 1)

def main():
    res = {"device": torch.cuda.get_device_name()}
    R, C = 8192, 8192
    for dtype in (torch.float16, torch.float32):
        x = torch.randn(R, C // 2, device="cuda", dtype=dtype)  # tiled twice along columns
        y = torch.empty(R, C, device="cuda", dtype=dtype)
        total, es = R * C, x.element_size()
        nbytes = (total + x.numel()) * es
        B = 1024
        g = (triton.cdiv(total, B),)
        ref = x.repeat(1, 2)
        a = lambda: decode_rt[g](x, y, x.stride(0), x.stride(1), y.stride(0), y.stride(1), C, R, C // 2, total, BLOCK=B)
        a(); assert torch.equal(y, ref)
        b = lambda: decode_unit[g](x, y, x.stride(0), y.stride(0), C, R, C // 2, total, BLOCK=B)
        y.zero_(); b(); assert torch.equal(y, ref)
        c = lambda: rows_2d[(triton.cdiv(C, B), R)](x, y, x.stride(0), y.stride(0), C, R, C // 2, BLOCK=B)
        y.zero_(); c(); assert torch.equal(y, ref)
        k = str(dtype).split(".")[1]
        res[k] = {"A_decode_runtime_strides": gbps(a, nbytes), "B_decode_unit_strides": gbps(b, nbytes),
                  "C_2d_grid": gbps(c, nbytes), "E_torch_copy": gbps(lambda: y.copy_(ref), 2 * total * es)}
        x4 = torch.randn(16, 32, 128, 1024, device="cuda", dtype=dtype)
        y4 = torch.empty_like(x4)
        t4 = x4.numel()
        d = lambda: decode_rank4[(triton.cdiv(t4, B),)](x4, y4, 32, 128, 1024, *x4.stride(), *y4.stride(), t4, BLOCK=B)
        d(); assert torch.equal(y4, x4)
        res[k]["D_rank4_decode_runtime_strides"] = gbps(d, 2 * t4 * es)
        res[k]["E4_torch_copy"] = gbps(lambda: y4.copy_(x4), 2 * t4 * es)
    print(json.dumps(res, indent=1))
    import os
    open(os.path.join(os.environ.get("OUT", "."), "index_decode_cost.json"), "w").write(json.dumps(res, indent=1))

main()

"""Regenerates the MLIR reader's own test data with triton 3.6.0 (no GPU needed):

- add_no_hints.ttgir: an add kernel compiled for sm_90 with no tt.divisibility hints, so
  coalescing cannot prove alignment (#blocked sizePerThread = [1]).
- warp_specialize_dump.mlir: the "WarpSpec internal IR Dump After: doCodePartition" pass dump of
  a warp-specialized matmul loop (ttg.warp_specialize with default/partitionN regions). The
  compile itself fails later in 3.6 (NVGPUWarpSpecialization), which is why only the dump exists.

Run: python3 generate.py  (writes next to this file; paths inside the IR name /tmp/mlirgen/...).
"""
import os
import subprocess
import sys
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
WORK = "/tmp/mlirgen"

KERNELS = textwrap.dedent('''\
    import triton, triton.language as tl

    @triton.jit
    def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
        pid = tl.program_id(0)
        offs = pid * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        x = tl.load(x_ptr + offs, mask=mask)
        y = tl.load(y_ptr + offs, mask=mask)
        tl.store(out_ptr + offs, x + y, mask=mask)

    @triton.jit
    def ws_kernel(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
        offs_m = tl.arange(0, BM)
        offs_n = tl.arange(0, BN)
        offs_k = tl.arange(0, BK)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in tl.range(0, K, BK, warp_specialize=True, num_stages=2):
            a = tl.load(a_ptr + offs_m[:, None] * K + (k + offs_k)[None, :])
            b = tl.load(b_ptr + (k + offs_k)[:, None] * BN + offs_n[None, :])
            acc = tl.dot(a, b, acc)
        tl.store(c_ptr + offs_m[:, None] * BN + offs_n[None, :], acc.to(tl.float16))
''')

COMPILE = textwrap.dedent('''
    import sys, triton, kernels
    from triton.compiler import ASTSource
    from triton.backends.compiler import GPUTarget
    target = GPUTarget("cuda", 90, 32)
    if sys.argv[1] == "add":
        sig = {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"}
        k = triton.compile(ASTSource(kernels.add_kernel, sig, {"BLOCK": 1024}), target=target,
                           options={"num_warps": 4, "num_stages": 3})
        sys.stdout.write(k.asm["ttgir"])
    else:
        sig = {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp16", "K": "i32",
               "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"}
        hints = {(i,): [["tt.divisibility", 16]] for i in range(4)}
        triton.compile(ASTSource(kernels.ws_kernel, sig, {"BM": 128, "BN": 128, "BK": 64}, hints),
                       target=target, options={"num_warps": 4, "num_stages": 2})
''')


def run(which, dump):
    env = dict(os.environ, TRITON_ALWAYS_COMPILE="1", TRITON_CACHE_DIR=os.path.join(WORK, "cache"))
    if dump:
        env["MLIR_ENABLE_DUMP"] = "1"
    return subprocess.run([sys.executable, "compile.py", which], cwd=WORK, env=env,
                          capture_output=True, text=True)


def main():
    os.makedirs(WORK, exist_ok=True)
    with open(os.path.join(WORK, "kernels.py"), "w") as f:
        f.write(KERNELS)
    with open(os.path.join(WORK, "compile.py"), "w") as f:
        f.write(COMPILE)
    with open(os.path.join(HERE, "add_no_hints.ttgir"), "w") as f:
        f.write(run("add", dump=False).stdout)
    stderr = run("ws", dump=True).stderr
    start = stderr.index("// -----// WarpSpec internal IR Dump After: doCodePartition")
    dump = stderr[start:stderr.index("#-}", start) + 3] + "\n"  # without the failure diagnostics
    with open(os.path.join(HERE, "warp_specialize_dump.mlir"), "w") as f:
        f.write(dump)


if __name__ == "__main__":
    main()

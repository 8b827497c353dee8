"""Element-wise vector add: out[i] = x[i] + y[i].

The two specs differ only in what the launch knows about alignment: `aligned` marks the
pointers and `n_elements` divisible by 16 (the JIT does this for 16-byte aligned tensors and
sizes), `unaligned` leaves `n_elements` unmarked, so the mask `offsets < n_elements` forces
scalar loads.
"""
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK
    offsets = block_start + tl.arange(0, BLOCK)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    output = x + y
    tl.store(out_ptr + offsets, output, mask=mask)

"""Planted cause: in a loop, a column reduction of a tile is broadcast back along the other
axis and combined with a row reduction; the two reduction layouts are converted through shared
memory every iteration (layout-conversion churn)."""
import triton
import triton.language as tl


@triton.jit
def center_kernel(x_ptr, y_ptr, NT, W: tl.constexpr, BR: tl.constexpr, BC: tl.constexpr):
    rows = tl.arange(0, BR)
    cols = tl.arange(0, BC)
    for t in range(0, NT):
        p = t * BR * W + rows[:, None] * W + cols[None, :]
        x = tl.load(x_ptr + p)
        col_mean = tl.sum(x, axis=0) / BR
        row_mean = tl.sum(x, axis=1) / BC
        y = x - col_mean[None, :] - row_mean[:, None]
        out = tl.trans(y)
        tl.store(y_ptr + t * BR * W + cols[:, None] * W + rows[None, :], out)

"""Extended ELU (scale * x for x > 0, else alpha * scale * (exp(input_scale * x) - 1)), fp16.

NPUKernelBench level0/13_elu.py, case 5 (line 6 of its .json): x float16[7, 1, 7, 977, 17],
alpha 47.034421762093615, scale -47.864024082602526, input_scale 37.493374337286355. The code is
written here; only the op and the input case come from NPUKernelBench (MultiKernelBench @460a972).
"""
import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
D0 = 7
D2 = 7
D3 = 977
D4 = 17
ALPHA = 47.034421762093615
SCALE = -47.864024082602526
INPUT_SCALE = 37.493374337286355

STRATA_TASK = {
    "category": "elementwise",
    "flops": "5 * D0 * D2 * D3 * D4",
    "bytes": "2 * D0 * D2 * D3 * D4 * 2",
    "interpret_shapes": {"D0": 2, "D3": 101},
}


@triton.jit
def elu_kernel(x_ptr, out_ptr, n_elements, alpha, scale, input_scale,
               BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float32)
    # Only the negative side needs the exp; min(x, 0) keeps the unused branch finite.
    negative = alpha * scale * (tl.exp(input_scale * tl.minimum(x, 0.0)) - 1.0)
    y = tl.where(x > 0, scale * x, negative)
    tl.store(out_ptr + offsets, y.to(tl.float16), mask=mask)


class Model(torch.nn.Module):
    def forward(self, x, alpha, scale, input_scale):
        alpha_t = torch.as_tensor(alpha, dtype=x.dtype, device=x.device)
        scale_t = torch.as_tensor(scale, dtype=x.dtype, device=x.device)
        input_scale_t = torch.as_tensor(input_scale, dtype=x.dtype, device=x.device)
        return torch.where(x > 0, scale_t * x, alpha_t * scale_t * (torch.exp(input_scale_t * x) - 1))


class ModelNew(torch.nn.Module):
    def forward(self, x, alpha, scale, input_scale):
        x = x.contiguous()
        out = torch.empty_like(x)
        n_elements = x.numel()
        BLOCK_SIZE = 2048  # 398 programs at the real shape
        elu_kernel[(triton.cdiv(n_elements, BLOCK_SIZE),)](
            x, out, n_elements, alpha, scale, input_scale, BLOCK_SIZE=BLOCK_SIZE)
        return out


def get_inputs():
    x = torch.randn(D0, 1, D2, D3, D4, device=DEVICE, dtype=torch.float16)
    return [x, ALPHA, SCALE, INPUT_SCALE]


def get_init_inputs():
    return []

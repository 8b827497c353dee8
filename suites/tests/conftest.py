"""Shared helpers of the suite tests: the tools folder on sys.path and small benchmark files."""
from __future__ import annotations

import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "suites" / "tools"))
sys.path.insert(0, str(REPO / "agent"))  # the agent's own count-formula evaluator

# A KernelBench-style reference: Model documented on the class, CPU inputs, shape globals.
RELU_REFERENCE = '''\
import torch
import torch.nn as nn

class Model(nn.Module):
    """
    Simple model that performs a ReLU activation.
    """
    def __init__(self):
        super(Model, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x)

batch_size = 4
dim = 256

def get_inputs():
    x = torch.randn(batch_size, dim)
    return [x]

def get_init_inputs():
    return []  # No special initialization inputs needed
'''

# An LLM-style first draft: repeats the reference's globals, Model and get_inputs (with other
# values, which must not win) and has a __main__ block, besides its kernel and ModelNew.
RELU_SOLUTION = '''\
"""First draft."""
import torch
import torch.nn as nn
import triton
import triton.language as tl

batch_size = 999
dim = 999


@triton.jit
def relu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=mask)


class Model(nn.Module):
    def forward(self, x):
        return x


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 256),)](x, out, n, BLOCK=256)
        return out


def get_inputs():
    return [torch.randn(batch_size, dim)]


if __name__ == "__main__":
    print(ModelNew()(*get_inputs()))
'''


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(textwrap.dedent(text))
    return path

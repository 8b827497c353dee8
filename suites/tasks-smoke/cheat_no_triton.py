"""CHEAT: no Triton at all, the work is torch's. verify must fail it with no_triton_launch."""
import torch

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
N = 1 << 16
STRATA_TASK = {"category": "cheat", "interpret_shapes": {"N": 2048}}


class Model(torch.nn.Module):
    def forward(self, x, y):
        return x + y


class ModelNew(torch.nn.Module):
    def forward(self, x, y):
        return torch.add(x, y)


def get_inputs():
    return [torch.randn(N, device=DEVICE), torch.randn(N, device=DEVICE)]


def get_init_inputs():
    return []

"""Capture-only runs (`run_task` with `capture_only: true`): the task's forward runs on CPU
tensors at its real shapes, every Triton launch is specialized by Triton's own binder and
recorded, and nothing is launched, so `strata-cli diagnose TASK.py` gets the H200 shapes' specs
on a machine without a GPU. Needs torch; skipped with the reason otherwise."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

if importlib.util.find_spec("torch") is None:
    pytest.skip("torch is not installed: capture-only runs need it (pip install torch)",
                allow_module_level=True)

from strata_agent.errors import RpcError  # noqa: E402
from strata_agent.task_runner import run_task  # noqa: E402

REPO = Path(__file__).resolve().parents[4]


def quiet(message, **extra):
    pass


def capture(task: Path) -> dict:
    return run_task({"task": str(task), "capture_only": True}, quiet)


def test_real_shapes_are_captured_without_running():
    result = capture(REPO / "suites" / "tasks-smoke" / "softmax.py")
    assert result["capture_errors"] == []
    [kernel] = result["kernels"]
    assert kernel["mode"] == "captured"
    # ROWS = 8192 programs: the task's real shape, not its interpret_shapes (64 rows)
    assert kernel["grid"] == [8192, 1, 1]
    spec = kernel["spec"]
    assert spec["constexprs"]["BLOCK"] == 1024
    assert spec["signature"]["out_ptr"] == "*fp32"
    assert "in_ptr" in spec["divisibility_16"]
    assert spec["target"] == "sm_90"


def test_autotuned_kernel_takes_its_first_config(tmp_path):
    task = tmp_path / "autotuned_scale.py"
    task.write_text('''
import torch
import triton
import triton.language as tl

N = 1 << 20


@triton.autotune(configs=[triton.Config({"BLOCK": 256}, num_warps=2),
                          triton.Config({"BLOCK": 1024}, num_warps=8)], key=["n"])
@triton.jit
def scale_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)


class Model(torch.nn.Module):
    def forward(self, x):
        return x * 2


class ModelNew(torch.nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        n = x.numel()
        scale_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, out, n)
        return out


def get_inputs():
    return [torch.randn(N)]


def get_init_inputs():
    return []
''')
    [kernel] = capture(task)["kernels"]
    assert kernel["spec"]["constexprs"]["BLOCK"] == 256
    assert kernel["spec"]["options"]["num_warps"] == 2
    assert kernel["grid"] == [(1 << 20) // 256, 1, 1]


def test_tuner_with_its_own_search_keeps_its_first_config(tmp_path):
    """A tuner that overrides run() and times every config through _bench (as flag_gems' own
    tuner does) must not need a driver under capture: each config times the same."""
    task = tmp_path / "own_search.py"
    task.write_text('''
import torch
import triton
import triton.language as tl
from triton.runtime.autotuner import Autotuner

N = 1 << 20


class SearchingTuner(Autotuner):
    def run(self, *args, **kwargs):
        self.nargs = dict(zip(self.arg_names, args))
        timings = {config: self._bench(*args, config=config, **kwargs) for config in self.configs}
        self.best_config = min(timings, key=timings.get)
        return self.fn.run(*args, **{**kwargs, **self.best_config.all_kwargs()})


@triton.jit
def scale_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)


tuned = SearchingTuner(scale_kernel, scale_kernel.arg_names,
                       [triton.Config({"BLOCK": 512}, num_warps=4),
                        triton.Config({"BLOCK": 2048}, num_warps=8)],
                       key=["n"], reset_to_zero=None, restore_value=None)


class Model(torch.nn.Module):
    def forward(self, x):
        return x * 2


class ModelNew(torch.nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        n = x.numel()
        tuned[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, out, n)
        return out


def get_inputs():
    return [torch.randn(N)]


def get_init_inputs():
    return []
''')
    result = capture(task)
    assert result["capture_errors"] == []
    [kernel] = result["kernels"]
    assert kernel["spec"]["constexprs"]["BLOCK"] == 512
    assert kernel["spec"]["options"]["num_warps"] == 4


def test_capture_only_and_interpret_exclude_each_other():
    with pytest.raises(RpcError, match="exclude each other"):
        run_task({"task": str(REPO / "suites" / "tasks-smoke" / "softmax.py"), "capture_only": True,
                  "interpret": True}, quiet)

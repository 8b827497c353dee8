"""Watching a candidate's forward for work done outside Triton. Runs in the task worker.

- `OpCounter` is a TorchDispatchMode that counts the aten ops a forward runs; views, allocations
  and fills are free, everything else is compute done by torch. Torch calls Triton's interpreter
  makes while it runs a kernel (it copies tensors to the host and back) are not counted.
- side streams: the backend's stream monitor (backends/nvidia/streams.py; the Ascend worker adds
  torch.npu's) records work moved off the default stream; verify turns it into a reason.
- `aliasing` finds outputs that share storage with an input, with module state, or with the
  output of an earlier call (a cached result).
"""
from __future__ import annotations

from collections import Counter
from typing import Any

import torch
from torch.utils._python_dispatch import TorchDispatchMode

from .launch_capture import inside_triton_launch
from .task_loader import tensors_in

# aten overload packets that allocate, fill, or only reinterpret memory: no real work.
FREE_OPS = frozenset("""
empty empty_like empty_strided new_empty new_empty_strided zeros zeros_like ones ones_like full
full_like new_zeros new_ones new_full fill_ zero_ scalar_tensor arange
view _unsafe_view reshape _reshape_alias as_strided t transpose permute expand expand_as squeeze
unsqueeze slice select detach alias lift_fresh unbind split split_with_sizes chunk narrow view_as
unflatten flatten movedim numpy_T resize_ set_ _local_scalar_dense is_same_size sym_size
sym_stride sym_numel sym_storage_offset _to_copy_noop
""".split())


class OpCounter(TorchDispatchMode):
    """Counts aten ops by overload packet name (e.g. 'mm', 'add', '_softmax'), and the bytes each
    op's tensors hold (inputs read plus outputs written: the least memory traffic it can have)."""

    def __init__(self) -> None:
        super().__init__()
        self.ops: Counter = Counter()
        self.bytes: Counter = Counter()

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        result = func(*args, **kwargs)
        if not inside_triton_launch():
            name = func.overloadpacket.__name__
            self.ops[name] += 1
            if name not in FREE_OPS:
                # An in-place or out= op returns a tensor it was given: already counted.
                written = 0 if func._schema.is_mutable else _tensor_bytes(result)
                self.bytes[name] += _tensor_bytes((args, kwargs)) + written
        return result

    def compute_ops(self, allowed: set[str] | frozenset = frozenset()) -> dict[str, int]:
        return {name: count for name, count in sorted(self.ops.items())
                if name not in FREE_OPS and name not in allowed}

    def glue(self) -> dict:
        """The torch work of the forward outside Triton: {"ops": [{op, count, bytes}], "bytes"},
        largest first. What `diagnose` weighs against the Triton kernels' own traffic."""
        ops = [{"op": name, "count": self.ops[name], "bytes": int(self.bytes[name])}
               for name in self.compute_ops()]
        ops.sort(key=lambda op: -op["bytes"])
        return {"ops": ops, "bytes": int(sum(op["bytes"] for op in ops))}


def _tensor_bytes(value: Any) -> int:
    if isinstance(value, torch.Tensor):
        return value.numel() * value.element_size()
    if isinstance(value, (list, tuple)):
        return sum(_tensor_bytes(item) for item in value)
    if isinstance(value, dict):
        return sum(_tensor_bytes(item) for item in value.values())
    return 0


def storage_key(tensor: Any) -> tuple[str, int] | None:
    try:
        storage = tensor.untyped_storage()
    except Exception:
        return None
    if storage.nbytes() == 0:
        return None
    return (str(tensor.device), storage.data_ptr())


def aliasing(outputs: Any, inputs: Any, module: Any, earlier_outputs: Any) -> list[dict]:
    """Reasons for outputs that are not fresh memory written by this call."""
    reasons = []
    input_keys = {storage_key(t) for t in tensors_in(inputs)} - {None}
    state_keys = set()
    if isinstance(module, torch.nn.Module):
        state_keys = {storage_key(t) for t in list(module.parameters()) + list(module.buffers())}
        state_keys.discard(None)
    earlier_keys = {storage_key(t) for t in tensors_in(earlier_outputs)} - {None}
    for index, output in enumerate(tensors_in(outputs)):
        key = storage_key(output)
        if key is None:
            continue
        if key in input_keys:
            reasons.append({"kind": "output_aliases_input", "severity": "fail", "output": index,
                            "message": f"output {index} shares storage with an input: the "
                            "candidate returned (a view of) its input instead of computing"})
        elif key in state_keys:
            reasons.append({"kind": "output_aliases_module_state", "severity": "fail",
                            "output": index, "message": f"output {index} is a parameter or "
                            "buffer of ModelNew, not a fresh result"})
        elif key in earlier_keys:
            reasons.append({"kind": "output_reused_across_calls", "severity": "fail",
                            "output": index, "message": f"output {index} has the same storage as "
                            "the previous call's output, which is still alive: a cached result"})
    return reasons

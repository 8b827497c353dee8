"""Method `verify`, worker side: is ModelNew the same function as Model, computed by Triton?

Per shape (the default plus every STRATA_TASK["extra_shapes"] entry) and per draw (>= 3 fresh
random input sets, never all zeros): run the reference in float64 (upcast inputs and weights;
the native-precision reference too, for context) and the candidate, alternating which runs
first. Before each candidate run, blocks of the output sizes are NaN-filled and freed so the
allocator hands poisoned memory to the candidate's outputs; unwritten elements then show as NaN.
The candidate runs under the launch capture, the aten op counter and the stream monitor.

Torch compute in ModelNew ("glue": aten ops besides views and allocations) fails a candidate,
except what param `glue` allows: `"initial"` for the user's own starting point (its torch ops are
part of the baseline: counted and reported as `glue_calls`, never failed), or `{op: calls}` for a
candidate of the loop, which may keep the initial's ops, at most as many calls per forward as the
initial made (its verdict's `glue_calls`), but add none.
"""
from __future__ import annotations

import contextlib
import copy
import math
import traceback
from typing import Any, Callable

import torch

from .anticheat import OpCounter, aliasing
# The device hooks (npu_checks.verify_bound_to points them at another backend's device): by
# default the NVIDIA backend's GPU, its synchronize, its device errors and its stream monitor.
from .backends.nvidia.device import leaves_context_broken, task_device
from .backends.nvidia.device import synchronize as _synchronize
from .backends.nvidia.streams import StreamMonitor
from .launch_capture import LaunchCapture
from .task_loader import Task, clone_inputs, draw_inputs, tensors_in, upcast

DEFAULT_TOLERANCE = {torch.float64: 1e-7, torch.float32: 1e-4, torch.float16: 1e-2,
                     torch.bfloat16: 1e-2}
TF32_TOLERANCE = 5e-4


def tolerance_for(dtype: torch.dtype, meta: dict) -> float:
    if "tolerance" in meta:
        return float(meta["tolerance"])
    if dtype == torch.float32 and meta.get("precision") == "tf32":
        return TF32_TOLERANCE
    return DEFAULT_TOLERANCE.get(dtype, 0.0)


def build_models(task: Task, seed: int) -> tuple[torch.nn.Module, torch.nn.Module]:
    """Model and ModelNew from the same init inputs and seed, on the task device."""
    init = task.init_inputs()
    torch.manual_seed(seed)
    reference = _on_device(task.module.Model(*copy.deepcopy(init)))
    torch.manual_seed(seed)
    candidate = _on_device(task.module.ModelNew(*copy.deepcopy(init)))
    if isinstance(reference, torch.nn.Module) and isinstance(candidate, torch.nn.Module):
        state = reference.state_dict()
        if state and set(state) == set(candidate.state_dict()):
            candidate.load_state_dict(state)  # same weights even if init consumed RNG differently
    return reference, candidate


def _on_device(model: Any) -> Any:
    return model.to(task_device()) if isinstance(model, torch.nn.Module) else model


def float64_copy(model: Any) -> Any | None:
    try:
        return copy.deepcopy(model).double() if isinstance(model, torch.nn.Module) else model
    except Exception:
        return None


def poison_free_blocks(like: list[torch.Tensor], copies: int = 4) -> None:
    """NaN-fill (ints: 0x5A) blocks the size of each output, then free them, so the allocator's
    next blocks of that size (the candidate's outputs) start poisoned. Best effort: the caching
    allocator may still hand out another free block; the output checks then see its old data."""
    blocks = []
    for tensor in like:
        for _ in range(copies):
            block = torch.empty(tensor.shape, dtype=tensor.dtype, device=tensor.device)
            block.fill_(math.nan if tensor.is_floating_point() else 0x5A)
            blocks.append(block)
    del blocks


class Verifier:
    def __init__(self, task: Task, draws: int, seed: int, progress: Callable[..., None],
                 glue: str | dict[str, int] | None = None, hold: Callable[[], Any] = contextlib.nullcontext):
        self.task = task
        # Entered around each piece of GPU work (a shape's models, one draw's checks): a timer
        # waiting for the GPU then waits for one check, not for a whole verify.
        self.hold = hold
        self.glue = glue
        self.glue_seen: dict[str, int] = {}  # op -> most calls in one forward
        self.draws = max(3, draws)
        self.seed = seed
        self.progress = progress
        self.reasons: list[dict] = []
        self.checks: list[dict] = []
        self.kernels: list[dict] = []
        self.reference_ops: set[str] = set()
        self.dead = False  # after a device error the context is unusable

    def run(self) -> dict:
        base = self.task.shape_globals()
        shapes = [{}] + list(self.task.meta.get("extra_shapes", []))
        for shape_index, overrides in enumerate(shapes):
            if self.dead:
                break
            self.task.set_shape({**base, **overrides})
            self.progress(f"verifying shape {shape_index} {overrides or '(default)'}")
            self.verify_shape(shape_index, overrides)
        self.task.set_shape(base)
        failed = any(reason["severity"] == "fail" for reason in self.reasons)
        return {"verdict": "fail" if failed else "pass", "reasons": merge_reasons(self.reasons),
                "checks": self.checks, "draws_per_shape": self.draws, "shapes": shapes,
                "kernels": self.kernels, "glue_calls": dict(sorted(self.glue_seen.items()))}

    def verify_shape(self, shape_index: int, overrides: dict) -> None:
        with self.hold():
            reference, candidate = build_models(self.task, self.seed)
            reference64 = float64_copy(reference)
        previous_outputs = None
        for draw in range(self.draws):
            seed = self.seed + 1000 * shape_index + draw
            with self.hold():
                groups, notes = draw_inputs(self.task, seed)
                for group_index, inputs in enumerate(groups):
                    order = "reference_first" if draw % 2 == 0 else "candidate_first"
                    check = {"shape": shape_index, "draw": draw, "group": group_index, "seed": seed,
                             "order": order, "notes": notes}
                    previous_outputs = self.check_once(check, reference, reference64, candidate,
                                                       inputs, previous_outputs)
                    self.checks.append(check)
                    if self.dead:
                        return

    def check_once(self, check: dict, reference, reference64, candidate, inputs: list,
                   previous_outputs: Any) -> Any:
        where = {key: check[key] for key in ("shape", "draw", "group")}
        if check["order"] == "reference_first":
            references = self.run_references(check, reference, reference64, inputs)
            outputs = self.run_candidate(check, candidate, inputs, references, previous_outputs)
        else:
            outputs = self.run_candidate(check, candidate, inputs, None, previous_outputs)
            references = self.run_references(check, reference, reference64, inputs)
        if outputs is None or references is None:
            return previous_outputs
        check["outputs"] = compare_outputs(outputs, references, self.task.meta)
        for index, result in enumerate(check["outputs"]):
            if result.get("problem"):
                self.reasons.append({"kind": result["problem"], "severity": "fail",
                                     "output": index, "message": result["message"], **where})
        return outputs

    def run_references(self, check: dict, reference, reference64, inputs):
        with torch.no_grad():
            counter = OpCounter()
            with counter:
                native = reference(*clone_inputs(inputs))
            self.reference_ops.update(counter.compute_ops())
            exact = None
            if reference64 is not None:
                try:
                    exact = reference64(*upcast(clone_inputs(inputs)))
                except Exception as error:
                    check.setdefault("notes", []).append(f"float64 reference failed ({error}); "
                                                         "compared with the native reference")
        _synchronize()
        return {"native": native, "float64": exact}

    def run_candidate(self, check: dict, candidate, inputs: list, references, previous_outputs):
        where = {key: check[key] for key in ("shape", "draw", "group")}
        like = tensors_in(references["native"]) if references else tensors_in(previous_outputs)
        poison_free_blocks([t for t in like if isinstance(t, torch.Tensor)])
        kept_inputs = clone_inputs(inputs)
        capture, counter, streams = LaunchCapture(), OpCounter(), StreamMonitor()
        try:
            with torch.no_grad(), capture, streams, counter:
                outputs = candidate(*inputs)
            _synchronize()
        except Exception as error:
            self.reasons.append(candidate_raised(error, self.task.path, where))
            self.dead = leaves_context_broken(str(error))
            return None
        check["launches"] = len(capture.launches)
        check["torch_ops"] = dict(counter.ops)
        if not self.kernels:
            self.kernels = capture.kernels()
        self.reasons.extend({**reason, **where} for reason in
                            self.cheat_reasons(capture, counter, streams, outputs, inputs,
                                               kept_inputs, candidate, previous_outputs))
        return outputs

    def cheat_reasons(self, capture, counter, streams, outputs, inputs, kept_inputs, candidate,
                      previous_outputs) -> list[dict]:
        reasons = []
        if not capture.launches:
            reasons.append({"kind": "no_triton_launch", "severity": "fail", "message":
                            "ModelNew.forward launched no Triton kernel"})
        allowed = set(self.task.meta.get("allowed_torch_ops", []))
        compute = counter.compute_ops(allowed)
        for name, count in compute.items():
            self.glue_seen[name] = max(count, self.glue_seen.get(name, 0))
        excess = glue_excess(compute, self.glue)
        if excess:
            shared = sorted(set(excess) & self.reference_ops)
            kept = self.glue if isinstance(self.glue, dict) else {}
            reasons.append({"kind": "torch_compute_in_candidate", "severity": "fail",
                            "ops": excess, "reference_ops_used": shared, "message":
                            "ModelNew.forward ran torch compute ops " + ", ".join(
                                f"aten.{name} x{count}" + (f" (the initial kernel: x{kept[name]})"
                                                           if kept.get(name) else "")
                                for name, count in excess.items())
                            + (f" (the reference's own: {', '.join(shared)})" if shared else "")})
        side_streams = [launch["kernel"] for launch in capture.launches
                        if not launch.get("default_stream", True)]
        if streams.uses or side_streams:
            reasons.append({"kind": "non_default_stream", "severity": "fail", "apis": streams.uses,
                            "kernels": sorted(set(side_streams)), "message":
                            "ModelNew.forward used a non-default CUDA stream: work on a side "
                            "stream escapes timing on the default stream"})
        reasons.extend(aliasing(outputs, inputs, candidate, previous_outputs))
        for index, (now, before) in enumerate(zip(tensors_in(inputs), tensors_in(kept_inputs))):
            if not same_values(now, before):
                reasons.append({"kind": "input_modified", "severity": "fail", "input": index,
                                "message": f"ModelNew.forward wrote into input {index}"})
        for problem in capture.errors[:3]:
            reasons.append({"kind": "capture_error", "severity": "warning", "message": problem})
        return reasons


def glue_excess(compute: dict[str, int], glue: str | dict[str, int] | None) -> dict[str, int]:
    """The torch compute calls of one forward that `glue` does not allow (see the module doc)."""
    if glue == "initial":
        return {}
    allowance = glue if isinstance(glue, dict) else {}
    return {name: count for name, count in compute.items() if count > allowance.get(name, 0)}


def same_values(now: torch.Tensor, before: torch.Tensor) -> bool:
    if now.is_floating_point():
        return bool(torch.allclose(now, before, rtol=0.0, atol=0.0, equal_nan=True))
    return bool(torch.equal(now, before))


def compare_outputs(outputs: Any, references: dict, meta: dict) -> list[dict]:
    got = tensors_in(outputs)
    native = tensors_in(references["native"])
    exact = tensors_in(references["float64"]) if references["float64"] is not None else native
    if len(got) != len(native):
        return [{"problem": "output_count_mismatch", "message": f"candidate returned {len(got)} "
                 f"tensors, the reference {len(native)}"}]
    return [compare_one(index, out, ref_native, ref_exact, meta)
            for index, (out, ref_native, ref_exact) in enumerate(zip(got, native, exact))]


def compare_one(index: int, out, ref_native, ref_exact, meta: dict) -> dict:
    result: dict[str, Any] = {"output": index, "shape": list(out.shape),
                              "dtype": str(out.dtype).replace("torch.", "")}
    if out.shape != ref_native.shape:
        return {**result, "problem": "shape_mismatch", "message": f"output {index} has shape "
                f"{list(out.shape)}, the reference {list(ref_native.shape)}"}
    if out.dtype != ref_native.dtype:
        return {**result, "problem": "dtype_mismatch", "message": f"output {index} is "
                f"{out.dtype}, the reference {ref_native.dtype}"}
    tolerance = tolerance_for(out.dtype, meta)
    result["tolerance"] = tolerance
    candidate = out.detach().double()
    exact = ref_exact.detach().double().to(candidate.device)
    bad = int((~torch.isfinite(candidate)).sum()) if out.is_floating_point() else 0
    result["non_finite"] = bad
    if out.is_floating_point() and not bool(torch.isfinite(exact).all()):
        return {**result, "problem": "reference_non_finite", "message": f"the reference's output "
                f"{index} has NaN/Inf on this input: cannot verify"}
    if bad:
        return {**result, "problem": "non_finite_output", "message": f"output {index} has {bad} "
                f"NaN/Inf elements of {out.numel()} (unwritten or NaN-producing)"}
    result["rel_error"] = relative_error(candidate, exact)
    result["reference_rel_error"] = relative_error(ref_native.detach().double(), exact)
    if result["rel_error"] > tolerance:
        worst = int((candidate - exact).abs().flatten().argmax()) if out.numel() else 0
        return {**result, "problem": "wrong_result", "first_bad_index": worst, "message":
                f"output {index}: relative error {result['rel_error']:.3g} over the tolerance "
                f"{tolerance:g} (worst element at flat index {worst})"}
    return result


def relative_error(value: torch.Tensor, reference: torch.Tensor) -> float:
    scale = float(torch.linalg.vector_norm(reference))
    error = float(torch.linalg.vector_norm(value - reference))
    if scale == 0.0:
        return error
    return error / scale


def candidate_raised(error: BaseException, task_path: str, where: dict) -> dict:
    frames = traceback.extract_tb(error.__traceback__)
    in_task = [frame for frame in frames if frame.filename == task_path]
    line = in_task[-1].lineno if in_task else None
    return {"kind": "candidate_raised", "severity": "fail", "line": line,
            "error_type": type(error).__name__, "message": f"ModelNew.forward raised "
            f"{type(error).__name__}: {str(error).strip()[:800]}", **where}


def merge_reasons(reasons: list[dict]) -> list[dict]:
    """One entry per (kind, output), with how often and where it was first seen."""
    merged: dict[tuple, dict] = {}
    for reason in reasons:
        key = (reason["kind"], reason.get("output"), reason.get("input"))
        if key in merged:
            merged[key]["occurrences"] += 1
        else:
            merged[key] = {**reason, "occurrences": 1}
    return list(merged.values())


def verify_task(task: Task, params: dict, progress: Callable[..., None],
                hold: Callable[[], Any] = contextlib.nullcontext) -> dict:
    verifier = Verifier(task, int(params.get("draws", 3)), int(params.get("seed", 20261201)),
                        progress, params.get("glue"), hold)  # glue checked by task_runner
    return verifier.run()

"""The Ascend compile worker: one triton-ascend compile in its own process, run by compile.py
with the Python that has triton-ascend.

Usage: python -m strata_agent.backends.ascend.worker REQUEST.json

Like compile_worker (whose kernel import and spec checks it reuses), it writes each stage's
output into work_dir as soon as it exists and a result file: {"ok": true, "artifacts",
"metadata", "stages"} or {"ok": false, "error": {...}}. stdout carries progress lines; fd 1 then
joins stderr, which the agent splits into the TTIR pass dumps (MLIR_ENABLE_DUMP), stage markers
and the compile log.

The stages are the backend's own (`make_backend(GPUTarget("npu", soc, 0))`, `add_stages`), run
one by one as triton.compile would run them, without its cache: ttir, ttadapter, and npubin only
where CANN's bishengir-compile is on PATH; otherwise npubin (and the HIVM IR that bishengir
prints on the way) is reported as skipped, with the reason.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import traceback
from pathlib import Path
from typing import Any, TextIO

from ...compile_worker import STAGE_MARKER, Worker, json_safe_metadata, open_progress_channel
from ...errors import COMPILE_ERROR, StrataError
from ...spec import compile_arguments
from .compiler_crash import tool_error
from .environment import bishengir_compile
from .targets import ASCEND_TARGETS
from .tool_runs import ToolRunner, adapter_opt_override, tools_of_stage

ADAPTER_DUMP_DIR = ".passes-ttadapter"      # the adapter's --mlir-print-ir-tree-dir
NPUBIN_DUMP_FILE = "npubin.after-all.log"   # bishengir-compile's --mlir-print-ir-after-all
TEXT_STAGES = ("ttir", "ttadapter")
# Function attributes of the ttadapter kernel (lib/TritonToLinalg/TritonToLinalgPass.cpp).
_FUNCTION_ATTRIBUTES = {"mix_mode": re.compile(r'mix_mode\s*=\s*"([^"]+)"'),
                        "parallel_mode": re.compile(r'parallel_mode\s*=\s*"([^"]+)"')}
_KERNEL_NAME = re.compile(r"func\.func\s+@(\w+)")
_TENSOR_KIND = re.compile(r"%arg\d+:[^,)]*?\{[^}]*?tt\.tensor_kind\s*=\s*(-?\d+)")


class AscendWorker(Worker):
    def __init__(self, request: dict, progress: TextIO):
        super().__init__(request, progress)
        self.target = ASCEND_TARGETS[self.spec["target"]]
        self.dump_passes = bool(request.get("pass_dumps", True))
        self.stages: list[dict] = []
        self.artifacts: dict[str, str] = {}

    def run(self) -> dict[str, Any]:
        metadata = self.compile_stages(self.load_kernel())
        return {"ok": True, "artifacts": self.artifacts, "stages": self.stages,
                "metadata": json_safe_metadata(metadata)}

    def compile_stages(self, jit_function: Any) -> dict:
        """Runs the backend's stages as triton.compile would (without its cache); npubin only
        where bishengir-compile exists."""
        backend, options, stages = self.prepare_backend()
        self.report("compiling", target=self.spec["target"])
        source = self.ast_source(jit_function)
        metadata = {"hash": source.hash(), "target": backend.target, **options.__dict__}
        module = self.make_ir(source, backend, options)
        compiler_globals = type(backend).add_stages.__globals__
        for stage_name, stage in stages.items():
            if stage_name == "npubin" and not bishengir_compile():
                self.skip_binary_stages()
                break
            module = self.run_stage(stage_name, stage, module, metadata, compiler_globals)
        metadata["triton_ascend_version"] = triton_ascend_version()
        return metadata

    def prepare_backend(self) -> tuple[Any, Any, dict[str, Any]]:
        from triton.backends.compiler import GPUTarget
        from triton.compiler.compiler import make_backend
        gpu_target = GPUTarget("npu", self.target.soc, 0)
        self.check_option_names(gpu_target)
        backend = make_backend(gpu_target)
        options = backend.parse_options({**self.target.options, **self.spec["options"]})
        stages: dict[str, Any] = {}
        backend.add_stages(stages, options)
        return backend, options, stages

    def make_ir(self, source: Any, backend: Any, options: Any) -> Any:
        from triton._C.libtriton import ir
        context = ir.context()
        ir.load_dialects(context)
        backend.load_dialects(context)
        try:
            return source.make_ir(options, backend.get_codegen_implementation(),
                                  backend.get_module_map(), context)
        except Exception as error:
            raise self.compile_failure(error) from error

    def ast_source(self, jit_function: Any) -> Any:
        from triton.backends.ascend.compiler import AscendAttrsDescriptor
        from triton.compiler.compiler import ASTSource
        signature, constexprs, _ = compile_arguments(self.spec, jit_function.arg_names)
        hints = {jit_function.arg_names.index(name): 16 for name in self.spec["divisibility_16"]}
        return ASTSource(jit_function, signature, constexprs,
                         AscendAttrsDescriptor.from_hints(hints))

    def run_stage(self, stage_name: str, stage: Any, module: Any, metadata: dict,
                  compiler_globals: dict) -> Any:
        sys.stderr.flush()
        os.write(2, (STAGE_MARKER.format(stage=stage_name) + "\n").encode())
        self.report(f"running stage {stage_name}", stage=stage_name)
        runner = ToolRunner(stage_name, self.adapter_dump_dir(), self.dump_passes)
        with tools_of_stage(runner, compiler_globals, adapter_opt_override()):
            try:
                output = stage(module, metadata)
            except subprocess.CalledProcessError as error:
                failed = runner.last()
                if failed is None:
                    raise self.compile_failure(error) from error
                raise tool_error(failed, self.where()) from error
            except Exception as error:
                raise self.compile_failure(error) from error
            finally:
                self.save_tool_output(runner)
        self.save_ascend_stage(stage_name, output, metadata)
        if stage_name == "npubin":
            self.stages.append(hivm_status(runner))
        self.stages.append({"stage": stage_name, "status": "ran",
                            "tools": [run.tool for run in runner.runs]})
        return output

    def adapter_dump_dir(self) -> Path | None:
        return self.work_dir / ADAPTER_DUMP_DIR if self.dump_passes else None

    def save_tool_output(self, runner: ToolRunner) -> None:
        """bishengir's after-all dumps (its stderr) go to a file the agent splits into passes."""
        for run in runner.runs:
            if run.stage == "npubin" and run.stderr:
                self.write(NPUBIN_DUMP_FILE, run.stderr)

    def save_ascend_stage(self, stage_name: str, output: Any, metadata: dict) -> None:
        if stage_name in TEXT_STAGES:
            text = output if isinstance(output, str) else str(output)
            self.artifacts[stage_name] = self.write(f"{self.kernel}.{stage_name}", text)
            if stage_name == "ttadapter":
                metadata.update(ttadapter_facts(text))
        elif isinstance(output, bytes):
            self.artifacts[stage_name] = self.write(f"{self.kernel}.{stage_name}", output)

    def skip_binary_stages(self) -> None:
        reason = ("bishengir-compile is not on PATH: it comes with CANN (not on PyPI), so HIVM "
                  "IR and the NPU binary were not produced")
        self.stages.append({"stage": "hivm", "status": "skipped", "reason": reason})
        self.stages.append({"stage": "npubin", "status": "skipped", "reason": reason})
        self.report("skipped stages hivm, npubin (no bishengir-compile)")


def hivm_status(runner: ToolRunner) -> dict:
    """HIVM IR is not a backend stage of its own: bishengir-compile prints it on the way to the
    binary, when asked (--mlir-print-ir-after-all), and the agent splits it into pass dumps."""
    if any("IR Dump After" in run.stderr for run in runner.runs):
        return {"stage": "hivm", "status": "ran",
                "tools": ["bishengir-compile --mlir-print-ir-after-all"]}
    reason = ("pass dumps were turned off" if not runner.bishengir_dumps
              else "bishengir-compile printed no IR dump")
    return {"stage": "hivm", "status": "skipped", "reason": reason}


def ttadapter_facts(text: str) -> dict[str, Any]:
    """mix_mode ("aiv": vector cores only; "mix": cube and vector, any tl.dot), parallel_mode,
    the kernel's name and the tensor kind of each pointer argument (0 in, 1 out, 2 in-out)."""
    facts: dict[str, Any] = {}
    for key, pattern in _FUNCTION_ATTRIBUTES.items():
        if match := pattern.search(text):
            facts[key] = match.group(1)
    if match := _KERNEL_NAME.search(text):
        facts["kernel_name"] = match.group(1)
    facts["tensor_kinds"] = [int(kind) for kind in _TENSOR_KIND.findall(text)]
    return facts


def triton_ascend_version() -> str | None:
    import importlib.metadata
    try:
        return importlib.metadata.version("triton-ascend")
    except importlib.metadata.PackageNotFoundError:
        return None


def compile_request(request_path: str, progress: TextIO) -> int:
    request = json.loads(Path(request_path).read_text(encoding="utf-8"))
    worker = AscendWorker(request, progress)
    try:
        result = worker.run()
    except StrataError as error:
        result = {"ok": False, "error": {"code": error.code, **error.data},
                  "artifacts": worker.artifacts, "stages": worker.stages}
    except Exception as error:  # a bug in the worker itself: report it, never a bare crash
        traceback.print_exc()
        result = {"ok": False, "error": {"code": COMPILE_ERROR, "kind": "internal_error",
                                         "message": f"{type(error).__name__}: {error}",
                                         **worker.where()}}
    Path(request["result_path"]).write_text(json.dumps(result), encoding="utf-8")
    return 0


def main(argv: list[str]) -> int:
    return compile_request(argv[1], open_progress_channel())


if __name__ == "__main__":
    sys.exit(main(sys.argv))

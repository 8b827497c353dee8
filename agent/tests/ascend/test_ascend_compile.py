"""Offline Ascend compiles of a vector add, a row softmax and a tl.dot matmul: stage files,
loc() lines, pass dumps, mix_mode, skipped stages, compile.json."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from ascend_helpers import compiled  # noqa: F401  (a fixture)
from ascend_helpers import (ASCEND_KERNELS, SAMPLES, compile_sample, op_source_lines,
                            requires_triton_ascend, source_line_of, stand_in_bishengir)
from strata_agent.backends.ascend.environment import bishengir_compile

pytestmark = requires_triton_ascend


@pytest.mark.parametrize("name", SAMPLES)
def test_stage_files_are_written_with_source_locations(compiled, name):
    result = compiled[name]
    source = str(ASCEND_KERNELS / f"{name}.py")
    assert result["backend"] == "ascend" and result["target"] == "ascend910_95"
    for stage in ("ttir", "ttadapter"):
        path = Path(result["artifacts"][stage]["path"])
        text = path.read_text()
        assert path.name == f"{result['kernel']}.{stage}"
        assert f'loc("{source}":' in text, f"{stage} has no location in {source}"
    ttadapter = Path(result["artifacts"]["ttadapter"]["path"]).read_text()
    assert "func.func @" + result["kernel"] in ttadapter
    assert "tt.func" not in ttadapter   # lowered out of the Triton dialect


def test_vector_kernels_are_aiv_and_the_dot_kernel_is_mix(compiled):
    assert compiled["vector_add"]["metadata"]["mix_mode"] == "aiv"
    assert compiled["row_softmax"]["metadata"]["mix_mode"] == "aiv"
    assert compiled["matmul"]["metadata"]["mix_mode"] == "mix"
    ttadapter = Path(compiled["matmul"]["artifacts"]["ttadapter"]["path"]).read_text()
    assert "linalg.matmul" in ttadapter
    # The pointer arguments: two inputs and one output.
    assert compiled["matmul"]["metadata"]["tensor_kinds"] == [0, 0, 1]


def test_the_matmul_is_located_at_the_dot_line(compiled):
    result = compiled["matmul"]
    source = ASCEND_KERNELS / "matmul.py"
    ttadapter = Path(result["artifacts"]["ttadapter"]["path"]).read_text()
    dot_line = source_line_of(source, "tl.dot(")
    assert (str(source), dot_line) in op_source_lines(ttadapter, "linalg.matmul")
    load_lines = {source_line_of(source, "a = tl.load"), source_line_of(source, "b = tl.load")}
    copy_lines = {line for _, line in op_source_lines(ttadapter, "memref.copy")}
    assert load_lines <= copy_lines


def test_softmax_reductions_keep_call_site_locations(compiled):
    ttadapter = Path(compiled["row_softmax"]["artifacts"]["ttadapter"]["path"]).read_text()
    assert "callsite(" in ttadapter   # tl.max / tl.sum inlined from triton's standard.py


@pytest.mark.parametrize("name", SAMPLES)
def test_pass_dumps_cover_ttir_and_ttadapter(compiled, name):
    dumps = compiled[name]["pass_dumps"]
    assert [dump["index"] for dump in dumps] == list(range(len(dumps)))
    ttir = [dump for dump in dumps if dump["stage"] == "ttir"]
    adapter = [dump for dump in dumps if dump["stage"] == "ttadapter"]
    assert ttir and all(dump["kind"] == "before" for dump in ttir)
    assert len(adapter) >= 10 and all(dump["kind"] == "after" for dump in adapter)
    assert dumps.index(adapter[0]) > dumps.index(ttir[-1])   # pipeline order
    arguments = [dump["argument"] for dump in adapter]
    assert arguments[-1] == "triton-to-linalg"
    assert {"triton-to-annotation", "triton-to-unstructure"} <= set(arguments)
    source = str(ASCEND_KERNELS / f"{name}.py")
    for dump in adapter:
        text = Path(dump["path"]).read_text()
        assert text.startswith(f"// -----// IR Dump After {dump['pass']} ({dump['argument']})")
        assert f'loc("{source}":' in text
        assert Path(dump["path"]).name == f"{dump['index']:03d}-{dump['argument']}.mlir"


def test_last_adapter_dump_is_the_ttadapter_stage(compiled):
    result = compiled["matmul"]
    last = [dump for dump in result["pass_dumps"] if dump["stage"] == "ttadapter"][-1]
    dumped = Path(last["path"]).read_text().split("\n", 1)[1].strip()
    stage = Path(result["artifacts"]["ttadapter"]["path"]).read_text().strip()
    assert dumped == stage


@pytest.mark.skipif(bishengir_compile() is not None, reason="bishengir-compile is on PATH here")
def test_binary_stages_are_reported_skipped_without_cann(compiled):
    result = compiled["vector_add"]
    status = {stage["stage"]: stage for stage in result["stages"]}
    assert status["ttir"]["status"] == status["ttadapter"]["status"] == "ran"
    assert status["ttadapter"]["tools"] == ["triton-adapter-opt"]
    for stage in ("hivm", "npubin"):
        assert status[stage]["status"] == "skipped"
        assert "bishengir-compile" in status[stage]["reason"]
    assert "npubin" not in result["artifacts"] and "hivm" not in result["artifacts"]


def test_compile_json_names_files_relative_to_the_folder(compiled):
    result = compiled["row_softmax"]
    work_dir = Path(result["work_dir"])
    stored = json.loads((work_dir / "compile.json").read_text())
    assert stored["work_dir"] == "."
    assert stored["artifacts"]["ttadapter"]["path"] == "softmax_kernel.ttadapter"
    for dump in stored["pass_dumps"]:
        assert (work_dir / dump["path"]).is_file()
    assert not (work_dir / ".passes-ttadapter").exists()   # adopted into passes/


def test_a2_target_compiles_without_the_950_options(tmp_path):
    result = compile_sample("matmul", tmp_path, target="ascend910b3", pass_dumps=False)
    assert result["target"] == "ascend910b3"
    assert result["metadata"]["target"]["arch"] == "Ascend910B3"
    assert result["metadata"]["compile_on_910_95"] is False
    assert result["metadata"]["mix_mode"] == "mix"
    assert result["pass_dumps"] == []


def test_950_target_sets_the_950_defaults(compiled):
    metadata = compiled["vector_add"]["metadata"]
    assert metadata["target"] == {"backend": "npu", "arch": "Ascend910_9599", "warp_size": 0}
    assert metadata["compile_on_910_95"] is True
    assert metadata["multibuffer"] is False and metadata["enable_select_analysis"] is True


def test_spec_options_override_the_target_defaults(tmp_path):
    result = compile_sample("vector_add", tmp_path, pass_dumps=False,
                            spec={**_spec("vector_add"), "options": {"multibuffer": True}})
    assert result["metadata"]["multibuffer"] is True


def _spec(name: str) -> dict:
    return json.loads((ASCEND_KERNELS / f"{name}.spec.json").read_text())


def test_with_bishengir_on_path_npubin_runs_with_ir_dumps(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", f"{stand_in_bishengir(tmp_path)}".rsplit("/", 1)[0] + ":" +
                       os.environ["PATH"])
    result = compile_sample("vector_add", tmp_path / "work")
    status = {stage["stage"]: stage["status"] for stage in result["stages"]}
    assert status == {"ttir": "ran", "ttadapter": "ran", "hivm": "ran", "npubin": "ran"}
    npubin = Path(result["artifacts"]["npubin"]["path"])
    assert npubin.name == "add_kernel.npubin"
    assert npubin.read_bytes() == b"placeholder, not an NPU binary"
    hivm = [dump for dump in result["pass_dumps"] if dump["stage"] == "hivm"]
    assert [(dump["pass"], dump["argument"], dump["anchor"], dump["anchor_symbol"])
            for dump in hivm] == [("HIVMLowerToLoops", "hivm-lower-to-loops", "builtin.module",
                                   None), ("InjectSync", "hivm-inject-sync", "func.func", "@k")]
    assert Path(hivm[1]["path"]).read_text().splitlines()[1] == "func.func @k() {"
    assert result["pass_dumps"][-3]["stage"] == "ttadapter"   # HIVM after the adapter's

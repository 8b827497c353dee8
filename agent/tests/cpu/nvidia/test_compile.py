"""Real compiles of suites/samples through the agent's stdio protocol (sm_90, no GPU)."""
from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path

import pytest

from conftest import SAMPLES, compile_params

_results: dict[str, tuple[dict, list[dict]]] = {}


@pytest.fixture(scope="module")
def compiled(agent, tmp_path_factory):
    """compiled("vector_add", "aligned") -> (result, progress); each variant compiles once."""
    def get(name: str, variant: str):
        key = f"{name}.{variant}"
        if key not in _results:
            work_dir = tmp_path_factory.mktemp(key)
            reply, progress = agent.request("compile", compile_params(name, variant, work_dir))
            assert "error" not in reply, reply.get("error")
            _results[key] = (reply["result"], progress)
        return _results[key]
    return get


def read_artifact(result: dict, key: str) -> str:
    return Path(result["artifacts"][key]["path"]).read_text()


def test_aligned_add_uses_vector_loads(compiled):
    result, _ = compiled("vector_add", "aligned")
    ptx = read_artifact(result, "ptx")
    assert re.search(r"ld\.global\.v4\.b32", ptx)
    assert "sizePerThread = [4]" in read_artifact(result, "ttgir")
    assert result["remarks"] == []


def test_unaligned_add_uses_scalar_loads_and_says_why(compiled):
    result, _ = compiled("vector_add", "unaligned")
    ptx = read_artifact(result, "ptx")
    assert "ld.global.v4.b32" not in ptx
    assert re.search(r"ld\.global\.b32", ptx)
    vectorization = [remark for remark in result["remarks"]
                     if "vectorization fails" in remark["message"]]
    assert [remark["line"] for remark in vectorization] == [18, 19, 21]  # x, y loads; store
    assert all(remark["file"] == str(SAMPLES / "vector_add.py") for remark in vectorization)
    assert vectorization[0]["severity"] == "remark"
    assert vectorization[0]["column"] == 16
    assert vectorization[0]["stage"] == "llir"


def test_result_shape_and_compile_json(compiled):
    result, progress = compiled("vector_add", "aligned")
    assert result["protocol"] == 1
    assert result["kernel"] == "add_kernel"
    assert result["target"] == "sm_90"
    assert result["source_path"] == str(SAMPLES / "vector_add.py")
    assert set(result["artifacts"]) == {"source", "ttir", "ttgir", "llir", "ptx", "cubin", "sass",
                                        "ptxas_log", "compile_log", "debug_trace"}
    work_dir = Path(result["work_dir"])
    assert work_dir.is_absolute()
    stored = json.loads((work_dir / "compile.json").read_text())
    # The folder's compile.json is the reply with its paths relative to the folder.
    assert stored["work_dir"] == "."
    assert stored["source_path"] == result["source_path"]
    for key, ref in stored["artifacts"].items():
        assert (work_dir / ref["path"]).resolve() == Path(result["artifacts"][key]["path"]).resolve()
    assert {**stored, "work_dir": result["work_dir"], "artifacts": result["artifacts"],
            "pass_dumps": result["pass_dumps"]} == result
    assert result["metadata"]["name"] == "add_kernel"
    assert result["metadata"]["num_warps"] == 4
    assert result["metadata"]["target"] == {"backend": "cuda", "arch": 90, "warp_size": 32}
    assert [p["stage"] for p in progress if "stage" in p] == ["ttir", "ttgir", "llir", "ptx",
                                                              "cubin"]


def test_compile_folder_is_portable(compiled, tmp_path):
    """A copy of the folder, the original emptied, reads its own files: compile.json names
    nothing outside the folder but source_path, the path the compiler saw."""
    result, _ = compiled("vector_add", "aligned")
    original = Path(result["work_dir"])
    copy = tmp_path / "moved"
    shutil.copytree(original, copy)
    stored = json.loads((copy / "compile.json").read_text())
    refs = list(stored["artifacts"].values()) + [dump for dump in stored["pass_dumps"]
                                                 if dump.get("path")]
    assert len(refs) > 20
    for ref in refs:
        assert not Path(ref["path"]).is_absolute(), ref["path"]
        data = (copy / ref["path"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == ref["sha256"], ref["path"]
    assert str(original) not in (copy / "compile.json").read_text()


def test_artifact_hashes_and_sizes_match_files(compiled):
    result, _ = compiled("vector_add", "aligned")
    for key, ref in result["artifacts"].items():
        data = Path(ref["path"]).read_bytes()
        assert ref["size"] == len(data), key
        assert ref["sha256"] == hashlib.sha256(data).hexdigest(), key
    source = Path(result["artifacts"]["source"]["path"]).read_text()
    assert source == (SAMPLES / "vector_add.py").read_text()


def test_ir_locations_name_the_compiled_source(compiled):
    result, _ = compiled("vector_add", "aligned")
    assert f'loc("{SAMPLES / "vector_add.py"}":13:0)' in read_artifact(result, "ttir")
    assert re.search(r'\.file\s+\d+\s+"' + re.escape(str(SAMPLES / "vector_add.py")),
                     read_artifact(result, "ptx"))
    assert f'//## File "{SAMPLES / "vector_add.py"}", line 18' in read_artifact(result, "sass")


def test_pass_dumps_are_split_and_assigned_to_stages(compiled):
    result, _ = compiled("matmul", "default")
    dumps = result["pass_dumps"]
    assert [dump["index"] for dump in dumps] == list(range(len(dumps)))
    by_argument = {dump["argument"]: dump for dump in dumps}
    assert by_argument["inline"]["stage"] == "ttir"
    assert by_argument["tritongpu-coalesce"]["stage"] == "ttgir"
    assert by_argument["tritongpu-coalesce"]["pass"] == "TritonGPUCoalesce"
    assert by_argument["tritongpu-pipeline"]["stage"] == "ttgir"
    assert by_argument["convert-triton-gpu-to-llvm"]["stage"] == "llir"
    coalesce = Path(by_argument["tritongpu-coalesce"]["path"])
    assert coalesce.name == f"{by_argument['tritongpu-coalesce']['index']:03d}-tritongpu-coalesce.mlir"
    text = coalesce.read_text()
    assert text.startswith("// -----// IR Dump Before TritonGPUCoalesce (tritongpu-coalesce) "
                           "('builtin.module' operation) //----- //\n")
    assert "tt.dot" in text and "remark:" not in text


def test_pipeliner_internal_dumps_follow_the_pipeline_pass(compiled):
    result, _ = compiled("matmul", "default")
    arguments = [dump["argument"] for dump in result["pass_dumps"]]
    pipeline = arguments.index("tritongpu-pipeline")
    assert arguments[pipeline + 1:pipeline + 3] == ["tritongpu-pipeline.lower-loops",
                                                    "tritongpu-pipeline.expand-loops"]
    lower = result["pass_dumps"][pipeline + 1]
    assert lower["kind"] == "internal_after" and lower["pass"] == "SoftwarePipeliner:LowerLoops"
    assert "ttg.async_copy_global_to_local" in Path(lower["path"]).read_text()


def test_function_anchored_dumps_keep_their_symbol(compiled):
    result, _ = compiled("matmul", "default")
    anchored = [dump for dump in result["pass_dumps"] if dump["anchor"] == "tt.func"]
    assert any(dump["anchor_symbol"] == "@matmul_kernel" for dump in anchored)


def test_matmul_uses_wgmma_and_cp_async(compiled):
    result, _ = compiled("matmul", "default")
    assert "ttng.warp_group_dot" in read_artifact(result, "ttgir")
    ptx = read_artifact(result, "ptx")
    assert "wgmma.mma_async" in ptx
    assert "cp.async.cg.shared.global" in ptx
    assert re.search(r"\bHGMMA\.", read_artifact(result, "sass"))
    assert result["metadata"]["num_warps"] == 8
    assert result["metadata"]["shared"] == 98304
    assert result["ptxas"]["registers"] is not None and result["ptxas"]["registers"] <= 255
    assert result["ptxas"]["spill_stores_bytes"] == 0


def test_big_matmul_spills_and_ptxas_says_so(compiled):
    result, _ = compiled("matmul", "big_spill")
    ptxas = result["ptxas"]
    assert ptxas["registers"] == 255
    assert ptxas["spill_stores_bytes"] > 1000 and ptxas["spill_loads_bytes"] > 1000
    assert ptxas["stack_bytes"] > 0
    assert any("wgmma.mma_async instructions are serialized" in warning
               for warning in ptxas["warnings"])
    assert re.search(r"\bSTL\b", read_artifact(result, "sass"))


def test_target_in_request_overrides_spec(agent, tmp_path):
    params = compile_params("vector_add", "aligned", tmp_path, target="sm_80")
    reply, _ = agent.request("compile", params)
    result = reply["result"]
    assert result["target"] == "sm_80"
    assert result["metadata"]["target"]["arch"] == 80
    assert ".target sm_80" in read_artifact(result, "ptx")


def test_pass_dumps_can_be_turned_off_and_remarks_remain(agent, tmp_path):
    params = compile_params("vector_add", "unaligned", tmp_path, pass_dumps=False)
    reply, _ = agent.request("compile", params)
    result = reply["result"]
    assert result["pass_dumps"] == []
    assert list((tmp_path / "passes").iterdir()) == []
    assert [remark["line"] for remark in result["remarks"]] == [18, 19, 21]


def test_debug_trace_says_why_the_matmul_loads_are_not_pipelined(compiled):
    """The compiler's own reasons (TRITON_LLVM_DEBUG_ONLY) are kept apart from the log."""
    result, _ = compiled("matmul", "runtime_strides")
    trace = read_artifact(result, "debug_trace")
    # Runtime K strides: the pointer facts coalescing sees, and the pipeliner's verdict.
    assert "[tritongpu-coalesce]: axis info of pointer: contiguity = [1, 1], divisibility = [2, 2]" in trace
    assert re.search(r"\[triton-loop-pipeline\]: Load %\S+ = tt\.load .* is too small for pipelining", trace)
    assert "[axis-info]" not in read_artifact(result, "compile_log")
    assert all(line.startswith("[") for line in trace.splitlines())


def test_debug_trace_lines_never_enter_pass_dumps(compiled):
    result, _ = compiled("matmul", "runtime_strides")
    for dump in result["pass_dumps"]:
        text = Path(dump["path"]).read_text()
        assert "[tritongpu-coalesce]:" not in text and "[axis-info]:" not in text, dump["path"]


def test_library_kernel_file_is_imported_as_its_package_module(agent, tmp_path):
    # Like flag_gems/ops/embedding.py: a kernel file in a package, with a relative import and a
    # sibling named like a standard-library module. Loaded from its folder, `copy.py` shadowed
    # the stdlib's while torch/triton imported ("partially initialized module" on the H200).
    package = tmp_path / "kernlib" / "ops"
    package.mkdir(parents=True)
    (tmp_path / "kernlib" / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "copy.py").write_text("raise ImportError('the package copy.py shadowed the stdlib')\n")
    (tmp_path / "kernlib" / "utils.py").write_text("BLOCK_DEFAULT = 1024\n")
    sample = (SAMPLES / "vector_add.py").read_text()
    (package / "add.py").write_text("from ..utils import BLOCK_DEFAULT  # noqa: F401\n" + sample)
    params = compile_params("vector_add", "aligned", tmp_path / "work",
                            source_path=str(package / "add.py"))
    reply, _ = agent.request("compile", params)
    assert "result" in reply, reply.get("error")
    assert "ld.global.v4" in read_artifact(reply["result"], "ptx")

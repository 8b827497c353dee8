"""import_kernelbench.py on small KernelBench-style folders written here."""
from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

import pytest

from conftest import RELU_REFERENCE, RELU_SOLUTION, write
from import_kernelbench import main, run_import, task_name
from task_import import CATEGORIES, guess_category


def stored_task(path: Path) -> tuple[ast.Module, dict]:
    """Syntax tree and the literal STRATA_TASK of a written task, without importing it."""
    tree = ast.parse(path.read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "STRATA_TASK":
            return tree, ast.literal_eval(node.value)
    raise AssertionError(f"{path} has no STRATA_TASK")


def defined_names(tree: ast.Module) -> list[str]:
    return [node.name for node in tree.body
            if isinstance(node, (ast.FunctionDef, ast.ClassDef))]


@pytest.fixture
def level(tmp_path: Path) -> tuple[Path, Path, Path]:
    """level1/ with two references, solutions/ with a draft for the first only, and out/."""
    write(tmp_path / "level1", "19_ReLU.py", RELU_REFERENCE)
    write(tmp_path / "level1", "23_Softmax.py", RELU_REFERENCE.replace("torch.relu(x)",
                                                                      "torch.softmax(x, -1)"))
    write(tmp_path / "solutions", "19_ReLU.py", RELU_SOLUTION)
    return tmp_path / "level1", tmp_path / "solutions", tmp_path / "out"


def test_reference_with_solution_becomes_a_task(level):
    level_dir, solutions, out = level
    report = run_import(level_dir, out, solutions)
    assert report.errors == []
    assert report.written == [out / "019_relu.py"]
    tree, meta = stored_task(out / "019_relu.py")
    assert meta == {"category": "elementwise", "flops": None, "bytes": None}
    names = defined_names(tree)
    for name in ("Model", "ModelNew", "relu_kernel", "get_inputs", "get_init_inputs"):
        assert name in names
    assert names.count("Model") == 1  # the draft's copy is left out
    assert names.count("get_inputs") == 2  # the reference's and the device wrapper, not the draft's
    text = (out / "019_relu.py").read_text()
    assert "batch_size = 4" in text and "999" not in text  # the reference's shapes win
    assert "__main__" not in text and "interpret_shapes" not in text
    assert text.startswith('"""Simple model that performs a ReLU activation.')
    assert text.count("import triton\n") == 1 and text.count("import torch\n") == 1


def test_reference_without_solution_is_listed_as_skipped(level):
    level_dir, solutions, out = level
    report = run_import(level_dir, out, solutions)
    assert [(Path(ref).name, reason) for ref, reason in report.skipped] == [
        ("23_Softmax.py", f"no initial solution ({solutions / '23_Softmax.py'})")]
    assert not (out / "023_softmax.py").exists()


def test_without_a_solutions_folder_every_reference_is_skipped(level, capsys):
    level_dir, _, out = level
    assert main([str(level_dir), str(out)]) == 0
    printed = capsys.readouterr().out
    assert "written 0 task(s)" in printed and "skipped 2 reference(s)" in printed
    assert printed.count("no solutions folder given") == 2


def test_unparsable_reference_is_an_error_with_file_and_line(level, capsys):
    level_dir, solutions, out = level
    write(level_dir, "40_LayerNorm.py", "import torch\n\nclass Model(:\n    pass\n")
    assert main([str(level_dir), str(out), "--solutions", str(solutions)]) == 2
    printed = capsys.readouterr().out
    assert f"{level_dir / '40_LayerNorm.py'}:3: syntax error" in printed
    assert not out.exists()  # nothing written while any reference is broken


def test_reference_that_is_not_a_benchmark_problem_is_an_error(level):
    level_dir, solutions, out = level
    write(level_dir, "99_helpers.py", "import torch\n\ndef helper():\n    return 1\n")
    report = run_import(level_dir, out, solutions)
    assert report.errors == [f"{level_dir / '99_helpers.py'}:1: not a benchmark reference: "
                             "it lacks class Model and def get_inputs()"]
    assert report.written == []


def test_non_utf8_reference_is_an_error(level):
    level_dir, solutions, out = level
    (level_dir / "7_Bad.py").write_bytes(b"import torch\n# \xff\xfe\n")
    report = run_import(level_dir, out, solutions)
    assert len(report.errors) == 1 and "7_Bad.py:1: not UTF-8 text" in report.errors[0]


@pytest.mark.parametrize("draft, reason_part", [
    ("import triton\n\ndef broken(:\n", "19_ReLU.py:3: syntax error"),
    ("import triton\n\n@triton.jit\ndef k(x):\n    pass\n", "defines no class ModelNew"),
    ("import torch\n\nclass ModelNew(torch.nn.Module):\n    pass\n", "no @triton.jit kernel"),
    (RELU_SOLUTION + "\n\ndef get_init_inputs():\n    return []\n", None),
])
def test_unusable_solution_is_skipped_with_the_reason(level, draft, reason_part):
    level_dir, solutions, out = level
    write(solutions, "19_ReLU.py", draft)
    report = run_import(level_dir, out, solutions)
    reasons = dict(report.skipped)
    if reason_part is None:  # a draft's own get_init_inputs is dropped like its Model
        assert report.written == [out / "019_relu.py"]
    else:
        assert report.written == []
        assert reason_part in reasons[str(level_dir / "19_ReLU.py")]


def test_solution_that_redefines_a_reference_helper_is_skipped(level):
    level_dir, solutions, out = level
    write(level_dir, "19_ReLU.py", RELU_REFERENCE + "\n\ndef scale():\n    return 2\n")
    write(solutions, "19_ReLU.py", RELU_SOLUTION + "\n\ndef scale():\n    return 3\n")
    report = run_import(level_dir, out, solutions)
    reason = dict(report.skipped)[str(level_dir / "19_ReLU.py")]
    assert "redefines 'scale'" in reason and "19_ReLU.py:" in reason


def test_existing_task_is_kept_unless_force(level):
    level_dir, solutions, out = level
    write(out, "019_relu.py", "# hand-tuned, keep\n")
    report = run_import(level_dir, out, solutions)
    assert report.written == []
    assert "exists (--force overwrites)" in dict(report.skipped)[str(level_dir / "19_ReLU.py")]
    assert (out / "019_relu.py").read_text() == "# hand-tuned, keep\n"
    report = run_import(level_dir, out, solutions, force=True)
    assert report.written == [out / "019_relu.py"]
    assert "class ModelNew" in (out / "019_relu.py").read_text()


def test_report_json(level, tmp_path):
    level_dir, solutions, out = level
    report_path = tmp_path / "report.json"
    assert main([str(level_dir), str(out), "--solutions", str(solutions),
                 "--report", str(report_path)]) == 0
    text = report_path.read_text()
    assert "019_relu.py" in text and "23_Softmax.py" in text and '"errors": []' in text


def test_task_names_sort_in_problem_order():
    assert task_name("1_Square_matrix_multiplication_") == "001_square_matrix_multiplication"
    assert task_name("100_HingeLoss") == "100_hingeloss"
    assert task_name("Custom Name") == "custom_name"


@pytest.mark.parametrize("name, category", [
    ("1_Square_matrix_multiplication_", "matmul"),
    ("4_Matrix_vector_multiplication_", "matmul"),
    ("5_Matrix_scalar_multiplication", "elementwise"),
    ("19_ReLU", "elementwise"),
    ("20_LeakyReLU", "elementwise"),
    ("88_MinGPTNewGelu", "elementwise"),  # an activation, not a min reduction
    ("24_LogSoftmax", "softmax"),
    ("36_RMSNorm_", "normalization"),
    ("42_Max_Pooling_2D", "pooling"),
    ("47_Sum_reduction_over_a_dimension", "reduction"),
    ("51_Argmax_over_a_dimension", "reduction"),
    ("89_cumsum", "scan"),  # "sum" only matches at a word's start
    ("95_CrossEntropyLoss", "loss"),
    ("54_conv_standard_3D__square_input__square_kernel", "convolution"),
    ("1_Conv2D_ReLU_BiasAdd", "convolution"),  # the heaviest op of a fused problem names it
    ("12_Gemm_Multiply_LeakyReLU", "matmul"),
    ("43_MinGPTCausalAttention", "attention"),
    ("9_ResNet18", "architecture"),
    ("embedding_lookup", "indexing"),
    ("rope_fp16", "llm_fused"),
    ("transpose_fp32", "memory"),
])
def test_category_from_the_name(name, category):
    assert guess_category(name, "")[0] == category
    assert category in CATEGORIES


def test_category_from_the_ops_when_the_name_says_nothing():
    assert guess_category("17_Custom", "return torch.bmm(a, b)") == \
        ("matmul", "Model uses 'torch.bmm'")
    assert guess_category("17_Custom", "return x") == \
        ("uncategorized", "no keyword of the category table matched")


def test_imported_task_passes_verify_under_the_interpreter(level):
    """The merged file is a real task: the agent runs it on the CPU (inputs moved to the task
    device by the importer's get_inputs) and ModelNew matches Model."""
    if importlib.util.find_spec("torch") is None or importlib.util.find_spec("triton") is None:
        pytest.skip("needs torch and triton (pip install torch triton)")
    from agent_client import AgentClient
    level_dir, solutions, out = level
    run_import(level_dir, out, solutions)
    params = {"task": str(out / "019_relu.py"), "interpret": True, "timeout_s": 120}
    with AgentClient() as agent:
        assert agent.call("run_task", params, timeout=180)["launch_count"] == 1
        result = agent.call("verify", params, timeout=300)
    assert result["verdict"] == "pass", result["reasons"]

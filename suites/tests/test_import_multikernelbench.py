"""import_multikernelbench.py on small MultiKernelBench-style folders written here."""
from __future__ import annotations

import ast
from pathlib import Path

from conftest import RELU_REFERENCE, RELU_SOLUTION, write
from import_multikernelbench import FOLDER_CATEGORIES, main, run_import
from task_import import CATEGORIES

GROUPS_REFERENCE = RELU_REFERENCE.replace(
    "def get_inputs():\n    x = torch.randn(batch_size, dim)\n    return [x]",
    "def get_input_groups():\n    return [[torch.randn(batch_size, dim)], [torch.randn(2, dim)]]")


def category_of(path: Path) -> str:
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "STRATA_TASK":
            return ast.literal_eval(node.value)["category"]
    raise AssertionError(f"{path} has no STRATA_TASK")


def test_category_comes_from_the_folder(tmp_path):
    references = tmp_path / "reference"
    write(references / "activation", "relu.py", RELU_REFERENCE)
    write(references / "reduce", "reduce_sum.py", RELU_REFERENCE)  # the name does not matter
    write(references / "sparse", "spmv.py", RELU_REFERENCE)  # unknown folder: kept as is
    for name in ("relu.py", "reduce_sum.py", "spmv.py"):
        write(tmp_path / "solutions", name, RELU_SOLUTION)
    report = run_import(references, tmp_path / "out", tmp_path / "solutions")
    assert report.errors == [] and report.skipped == []
    assert category_of(tmp_path / "out" / "relu.py") == "elementwise"
    assert category_of(tmp_path / "out" / "reduce_sum.py") == "reduction"
    assert category_of(tmp_path / "out" / "spmv.py") == "sparse"
    assert "(folder 'reduce')" in (tmp_path / "out" / "reduce_sum.py").read_text()


def test_folder_table_names_only_known_categories():
    assert set(FOLDER_CATEGORIES.values()) <= set(CATEGORIES)


def test_solution_in_a_category_folder_wins_over_a_flat_one(tmp_path):
    references = tmp_path / "reference"
    write(references / "activation", "relu.py", RELU_REFERENCE)
    write(tmp_path / "solutions" / "activation", "relu.py",
          RELU_SOLUTION.replace("def relu_kernel", "def nested_relu_kernel")
          .replace("relu_kernel[", "nested_relu_kernel["))
    write(tmp_path / "solutions", "relu.py", RELU_SOLUTION)
    run_import(references, tmp_path / "out", tmp_path / "solutions")
    assert "nested_relu_kernel" in (tmp_path / "out" / "relu.py").read_text()


def test_skipped_references_name_both_places_looked_in(tmp_path):
    references = tmp_path / "reference"
    write(references / "loss", "mse_loss.py", RELU_REFERENCE)
    report = run_import(references, tmp_path / "out", tmp_path / "solutions")
    (reference, reason), = report.skipped
    assert reference == str(references / "loss" / "mse_loss.py")
    assert reason == (f"no initial solution ({tmp_path / 'solutions' / 'loss' / 'mse_loss.py'} "
                      f"or {tmp_path / 'solutions' / 'mse_loss.py'})")


def test_only_limits_the_category_folders(tmp_path):
    references = tmp_path / "reference"
    write(references / "activation", "relu.py", RELU_REFERENCE)
    write(references / "loss", "mse_loss.py", RELU_REFERENCE)
    write(tmp_path / "solutions", "relu.py", RELU_SOLUTION)
    report = run_import(references, tmp_path / "out", tmp_path / "solutions", only=["activation"])
    assert report.written == [tmp_path / "out" / "relu.py"] and report.skipped == []


def test_input_groups_are_moved_to_the_task_device_too(tmp_path):
    references = tmp_path / "reference"
    write(references / "activation", "relu.py", GROUPS_REFERENCE)
    write(tmp_path / "solutions", "relu.py", RELU_SOLUTION)
    run_import(references, tmp_path / "out", tmp_path / "solutions")
    text = (tmp_path / "out" / "relu.py").read_text()
    assert "_reference_get_input_groups = get_input_groups" in text
    assert "def get_inputs" not in text  # the draft's get_inputs is left out as well


def test_same_name_in_two_folders_is_an_error(tmp_path, capsys):
    references = tmp_path / "reference"
    write(references / "activation", "relu.py", RELU_REFERENCE)
    write(references / "fuse", "relu.py", RELU_REFERENCE)
    write(tmp_path / "solutions", "relu.py", RELU_SOLUTION)
    assert main([str(references), str(tmp_path / "out"), "--solutions",
                 str(tmp_path / "solutions")]) == 2
    printed = capsys.readouterr().out
    assert f"{references / 'fuse' / 'relu.py'}:1: task name 'relu' is also the name of" in printed
    assert not (tmp_path / "out").exists()


def test_unparsable_reference_names_file_and_line(tmp_path):
    references = tmp_path / "reference"
    write(references / "math", "cumsum.py", "import torch\n\n\ndef get_inputs(:\n")
    report = run_import(references, tmp_path / "out", None)
    (error,) = report.errors  # the message after "syntax error:" is Python's own
    assert error.startswith(f"{references / 'math' / 'cumsum.py'}:4: syntax error: ")


def test_existing_task_is_kept_unless_force(tmp_path):
    references = tmp_path / "reference"
    write(references / "activation", "relu.py", RELU_REFERENCE)
    write(tmp_path / "solutions", "relu.py", RELU_SOLUTION)
    write(tmp_path / "out", "relu.py", "# keep\n")
    arguments = [str(references), str(tmp_path / "out"), "--solutions",
                 str(tmp_path / "solutions")]
    assert main(arguments) == 0
    assert (tmp_path / "out" / "relu.py").read_text() == "# keep\n"
    assert main(arguments + ["--force"]) == 0
    assert "class ModelNew" in (tmp_path / "out" / "relu.py").read_text()

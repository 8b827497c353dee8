"""The launch facts bench/corpus/collect.py adds to a captured spec (scalar_args, tensor_elements,
never the grid), on a kernel written here and called with a non-contiguous view, and the launch
variant rows it keeps only where their spec differs from the default call's."""
import json
import os
import sys

import pytest

triton = pytest.importorskip("triton")
torch = pytest.importorskip("torch")
import triton.language as tl  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "corpus"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "agent"))
import collect  # noqa: E402


@triton.jit
def column_scan(src_ptr, dst_ptr, rows, inner, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    values = tl.load(src_ptr + offsets * inner, mask=offsets < rows)
    tl.store(dst_ptr + offsets * inner, tl.cumsum(values, 0), mask=offsets < rows)


def test_capture_records_run_time_ints_and_tensor_sizes_but_no_grid():
    src = torch.randn(64, 48)
    dst = torch.empty_like(src)

    def along_rows():  # a scan down a column: lanes `inner` elements apart
        column_scan[(48,)](src, dst, 64, src.stride(0), BLOCK=64)

    spec = collect.capture_specs(along_rows)[0]["spec"]
    assert spec["scalar_args"] == {"rows": 64, "inner": 48}
    assert spec["tensor_elements"] == {"src_ptr": 64 * 48, "dst_ptr": 64 * 48}
    assert "grid" not in spec  # the driver's small shapes would misjudge the library's grid


def test_a_unit_inner_size_is_folded_and_still_recorded():
    src = torch.randn(64)
    dst = torch.empty_like(src)
    spec = collect.capture_specs(lambda: column_scan[(1,)](src, dst, 64, 1, BLOCK=64))[0]["spec"]
    assert spec["equal_to_1"] == ["inner"]
    assert spec["scalar_args"]["inner"] == 1


def test_variant_rows_are_kept_only_where_the_spec_differs(tmp_path):
    base = {"library": "lib", "kernel": "k", "file": str(tmp_path / "k.py"), "line": 1, "op": "op",
            "how": "captured", "spec": {"kernel": "k", "scalar_args": {"inner": 1}}}
    same = dict(base, op="op (dim=0)", variant="dim=0")
    other = dict(base, kernel="j", op="op (dim=0)", variant="dim=0")
    other_default = dict(base, kernel="j")
    other["spec"] = {"kernel": "j", "scalar_args": {"inner": 512}}
    captured = tmp_path / "captured.jsonl"
    captured.write_text("".join(json.dumps(row) + "\n" for row in (base, other_default, same, other)))
    variants = collect.load_variants(str(captured))
    assert [row["kernel"] for row in variants] == ["k", "j"]
    defaults = collect.load_captured(str(captured))
    assert set(defaults) == {(base["file"], "k"), (base["file"], "j")}
    kept = collect.variant_rows(defaults, variants, ["lib"])
    assert [(row["kernel"], row["spec"]["scalar_args"]["inner"]) for row in kept] == [("j", 512)]
    assert collect.variant_rows(defaults, variants, ["other"]) == []

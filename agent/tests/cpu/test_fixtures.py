"""tests/fixtures (made by tests/fixtures/generate_fixtures.py, and tests/fixtures/ascend by its
regenerate.sh) is consistent: every path in each compile.json is relative, exists, and has the
recorded size and hash."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from conftest import REPO

FIXTURES = REPO / "tests" / "fixtures"
# tests/fixtures/<sample>/<variant>: NVIDIA compiles of suites/samples; tests/fixtures/ascend/<name>:
# triton-ascend compiles, of the samples and of kernels of its own.
COMPILE_JSONS = sorted(path for path in FIXTURES.glob("*/*/compile.json")
                       if path.parent.parent.name != "ascend")
ASCEND_COMPILE_JSONS = sorted((FIXTURES / "ascend").glob("*/compile.json"))


def check_ref(fixture_dir: Path, ref: dict) -> None:
    assert not Path(ref["path"]).is_absolute()
    data = (fixture_dir / ref["path"]).read_bytes()
    assert len(data) == ref["size"]
    assert hashlib.sha256(data).hexdigest() == ref["sha256"]


def test_every_sample_variant_has_a_fixture():
    specs = sorted(path.name.removesuffix(".spec.json")
                   for path in (REPO / "suites" / "samples").glob("*.spec.json"))
    fixtures = sorted(f"{path.parent.parent.name}.{path.parent.name}" for path in COMPILE_JSONS)
    assert fixtures == specs


@pytest.mark.parametrize("compile_json", COMPILE_JSONS,
                         ids=[f"{p.parent.parent.name}.{p.parent.name}" for p in COMPILE_JSONS])
def test_fixture_references_resolve(compile_json):
    fixture_dir = compile_json.parent
    result = json.loads(compile_json.read_text())
    assert result["work_dir"] == "."
    assert result["source_path"] == f"/tmp/strata-fixture-src/{fixture_dir.parent.name}.py"
    for ref in result["artifacts"].values():
        if not ref.get("omitted"):
            check_ref(fixture_dir, ref)
    for dump in result["pass_dumps"]:
        if not dump.get("omitted"):
            check_ref(fixture_dir, dump)
    assert (fixture_dir / "source.py").read_text() == \
        (REPO / "suites" / "samples" / f"{fixture_dir.parent.name}.py").read_text()


@pytest.mark.parametrize("compile_json", ASCEND_COMPILE_JSONS,
                         ids=[p.parent.name for p in ASCEND_COMPILE_JSONS])
def test_ascend_fixture_references_resolve(compile_json):
    fixture_dir = compile_json.parent
    result = json.loads(compile_json.read_text())
    assert result["work_dir"] == "."
    assert result["backend"] == "ascend"
    for ref in result["artifacts"].values():
        check_ref(fixture_dir, ref)
    for dump in result["pass_dumps"]:
        check_ref(fixture_dir, dump)

"""Spec errors name the spec file (when the client says which), the key as a JSON path and its
line, and wrong value types are spec errors, never Python exceptions from inside Triton."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import SAMPLES, load_spec

BAD_INPUT = -32003
ADD_SOURCE = str(SAMPLES / "vector_add.py")


def write_spec(tmp_path: Path, mutate) -> Path:
    spec = load_spec("vector_add", "aligned")
    mutate(spec)
    path = tmp_path / "add.bad.spec.json"
    path.write_text(json.dumps(spec, indent=2))
    return path


def compile_with_spec_file(agent, tmp_path: Path, mutate) -> tuple[dict, Path]:
    spec_path = write_spec(tmp_path, mutate)
    reply, _ = agent.request("compile", {
        "source_path": ADD_SOURCE, "spec": json.loads(spec_path.read_text()),
        "spec_path": str(spec_path), "work_dir": str(tmp_path / "out")})
    assert "error" in reply, "expected a spec error, got a result"
    return reply["error"], spec_path


def line_of(path: Path, needle: str) -> int:
    return next(number for number, text in enumerate(path.read_text().splitlines(), 1)
                if needle in text)


@pytest.mark.parametrize("mutate, key, words, written", [
    (lambda spec: spec["options"].update(num_warps="eight"), "options.num_warps",
     'must be an integer of at least 1 (e.g. 8), not the string "eight"', '"num_warps": "eight"'),
    (lambda spec: spec["options"].update(num_stages=True), "options.num_stages", "not true",
     '"num_stages": true'),
    (lambda spec: spec["options"].update(num_ctas=0), "options.num_ctas", "not 0",
     '"num_ctas": 0'),
    (lambda spec: spec["options"].update(enable_fp_fusion="yes"), "options.enable_fp_fusion",
     "must be true or false", '"enable_fp_fusion"'),
    (lambda spec: spec["constexprs"].update(BLOCK=[1024]), "constexprs.BLOCK",
     "must be a number, a string, true/false or null, not an array", '"BLOCK": ['),
    (lambda spec: spec["signature"].update(x_ptr="*float"), "signature.x_ptr",
     "unknown type '*float'", '"x_ptr": "*float"'),
    (lambda spec: spec.update(options=[4]), "options", "must be an object, not an array",
     '"options"'),
])
def test_wrong_values_name_spec_file_key_and_line(agent, tmp_path, mutate, key, words, written):
    error, spec_path = compile_with_spec_file(agent, tmp_path, mutate)
    assert error["code"] == BAD_INPUT
    data = error["data"]
    assert data["kind"] == "bad_spec"
    assert words in error["message"]
    assert data["file"] == str(spec_path)
    assert data["spec_key"] == key
    assert data["kernel_file"] == ADD_SOURCE
    assert data["line"] == line_of(spec_path, written)


def test_inline_spec_error_names_no_file(agent, tmp_path):
    spec = load_spec("vector_add", "aligned")
    spec["options"]["num_warps"] = "eight"
    reply, _ = agent.request("compile", {"source_path": ADD_SOURCE, "spec": spec})
    assert reply["error"]["data"]["file"] is None
    assert reply["error"]["data"]["spec_key"] == "options.num_warps"
    assert "spec.options.num_warps" in reply["error"]["message"]


def test_misspelt_option_is_refused_not_ignored(agent, tmp_path):
    error, spec_path = compile_with_spec_file(
        agent, tmp_path, lambda spec: spec["options"].update(num_warp=8))
    assert error["data"]["kind"] == "bad_spec"
    assert error["data"]["spec_key"] == "options.num_warp"
    assert "not an option of Triton's cuda backend" in error["message"]
    assert "num_warps" in error["message"]          # the known names are listed
    assert error["data"]["file"] == str(spec_path)


@pytest.mark.parametrize("value, hint", [("abc", None), ("1024", "write it as a number: 1024")])
def test_string_constexpr_where_a_number_is_needed(agent, tmp_path, value, hint):
    error, spec_path = compile_with_spec_file(
        agent, tmp_path, lambda spec: spec["constexprs"].update(BLOCK=value))
    data = error["data"]
    assert error["code"] == BAD_INPUT
    assert data["kind"] == "bad_spec"
    assert data["spec_key"] == "constexprs.BLOCK"
    assert data["file"] == str(spec_path)
    assert data["line"] == line_of(spec_path, f'"BLOCK": "{value}"')
    assert data["kernel_line"] == 15                 # block_start = pid * BLOCK
    assert f'spec.constexprs.BLOCK is the string "{value}"' in error["message"]
    assert "vector_add.py:15" in error["message"]
    assert (hint in error["message"]) if hint else ("without quotes" not in error["message"])


def test_signature_mismatch_names_the_spec_file(agent, tmp_path):
    error, spec_path = compile_with_spec_file(
        agent, tmp_path, lambda spec: spec["signature"].update(z_ptr="*fp32"))
    assert error["data"]["kind"] == "signature_mismatch"
    assert error["data"]["file"] == ADD_SOURCE       # the def line is the useful place
    assert error["data"]["spec_file"] == str(spec_path)

"""The backend registry: a target picks its backend, and an agent whose triton is triton-ascend
refuses NVIDIA targets plainly."""
from __future__ import annotations

import pytest

import strata_agent.backends as backends
from ascend_helpers import sample_params
from strata_agent.errors import COMPILE_ERROR, StrataError


@pytest.mark.parametrize("target, name", [("sm_90", "nvidia"), ("sm_100", "nvidia"),
                                          ("ascend910_95", "ascend"), ("ascend910b3", "ascend"),
                                          ("sm_75", "nvidia"), (None, "nvidia")])
def test_a_target_picks_its_backend(target, name):
    assert backends.backend_for_target(target).name == name


def test_the_request_target_overrides_the_spec_target():
    spec = {"target": "ascend910_95"}
    assert backends.requested_target({"spec": spec}) == "ascend910_95"
    assert backends.requested_target({"spec": spec, "target": "sm_90"}) == "sm_90"
    assert backends.requested_target({"spec": ["not", "an", "object"]}) is None
    assert backends.requested_target({"spec": spec, "target": 90}) is None


def test_an_agent_with_triton_ascend_refuses_nvidia_targets(tmp_path, monkeypatch):
    monkeypatch.setattr(backends, "local_triton_flavour", lambda: backends.ASCEND)
    with pytest.raises(StrataError) as caught:
        backends.run_compile(sample_params("vector_add", tmp_path, target="sm_90"),
                             lambda *_, **__: None)
    assert caught.value.code == COMPILE_ERROR and caught.value.data["kind"] == "triton_missing"
    assert "triton-ascend" in caught.value.message


def test_info_lists_both_backends():
    entries = {entry["name"]: entry for entry in backends.backends_info()}
    assert entries["nvidia"]["targets"] == ["sm_80", "sm_90", "sm_100"]
    assert entries["ascend"]["targets"] == ["ascend910_95", "ascend910b3"]
    assert entries["ascend"]["target_socs"]["ascend910_95"] == "Ascend910_9599"
    assert entries["ascend"]["available"] == (entries["ascend"]["python"] is not None)


def test_the_ascend_entry_names_its_triton():
    from strata_agent.backends.ascend.environment import describe_ascend
    entry = describe_ascend()
    if not entry["available"]:
        pytest.skip(entry["reason"])
    assert entry["triton"] == f"triton-ascend {entry['triton_ascend']}"
    assert entry["triton_ascend"] == "3.2.0"

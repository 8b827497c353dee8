"""A worker error that says torch sees no GPU gets the kind "no_device", so clients (the app's
host report) explain it without reading CUDA's words themselves."""
from __future__ import annotations

import pytest

from strata_agent.task_worker import error_outcome


def test_torch_without_a_gpu_is_no_device():
    torch = pytest.importorskip("torch")
    if torch.cuda.is_available():
        pytest.skip("this host has a GPU: torch raises nothing to classify")
    try:
        torch.cuda.get_device_properties(0)  # the real error of this torch on this machine
    except (RuntimeError, AssertionError) as error:
        outcome = error_outcome(error, [])
    else:
        pytest.fail("torch.cuda.get_device_properties(0) raised nothing without a GPU")
    assert outcome["error"]["kind"] == "no_device", outcome["error"]["message"]


def test_a_candidate_error_keeps_its_kind():
    outcome = error_outcome(ValueError("shapes do not match"), [])
    assert outcome["error"]["kind"] == "candidate_raised"

"""The worker's GPU gate (strata_agent/gpu_gate.py): shared holders run together, an exclusive
holder waits for them and they for it, across processes, and a verify through the agent with
param `gpu_gate` reports its wait and hold seconds."""
from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import threading
import time

from strata_agent.gpu_gate import GpuGate, from_params, lock_path

from conftest import AGENT_DIR, AgentClient, REPO


def test_no_name_means_no_lock(tmp_path):
    gate = from_params({})
    assert not gate.active
    with gate.exclusive("measure"):
        pass
    assert gate.report() == {}


def test_name_is_sanitized_into_the_temp_dir(monkeypatch, tmp_path):
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile
    monkeypatch.setattr(tempfile, "tempdir", None)
    monkeypatch.setitem(sys.modules, "torch", None)  # no GPU seen: the index names it
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "1")
    path = lock_path("../gpu 0")
    assert path.startswith(str(tmp_path))
    assert path.endswith("strata-gpu-gate-.._gpu_0-1.lock")
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES")
    assert lock_path("gpu").endswith("strata-gpu-gate-gpu-all.lock")


def test_a_visible_gpu_is_named_by_its_uuid(monkeypatch, tmp_path):
    import types
    properties = types.SimpleNamespace(uuid="GPU-1234")
    cuda = types.SimpleNamespace(is_available=lambda: True, get_device_properties=lambda index: properties)
    monkeypatch.setitem(sys.modules, "torch", types.SimpleNamespace(cuda=cuda))
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "0")
    assert lock_path("gpu").endswith("strata-gpu-gate-gpu-GPU-1234.lock")


def hold_in_thread(gate: GpuGate, mode: str, seconds: float, started: threading.Event):
    def body():
        with getattr(gate, mode)("held"):
            started.set()
            time.sleep(seconds)
    thread = threading.Thread(target=body)
    thread.start()
    return thread


def test_shared_holders_overlap_and_exclusive_waits(monkeypatch, tmp_path):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    first, second, writer = GpuGate("g"), GpuGate("g"), GpuGate("g")
    began = threading.Event()
    holder = hold_in_thread(first, "shared", 0.6, began)
    began.wait(5)
    with second.shared("checks"):   # a second reader does not wait for the first
        pass
    with writer.exclusive("measure"):  # the writer waits until the reader lets go
        pass
    holder.join()
    assert second.figures["checks_wait_s"] < 0.3
    assert writer.figures["measure_wait_s"] >= 0.3
    assert set(writer.report()) == {"path", "measure_wait_s", "measure_held_s"}


def test_exclusive_holder_in_another_process_blocks_readers(monkeypatch, tmp_path):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    code = ("import sys, time; sys.path.insert(0, sys.argv[1]); import tempfile; "
            "tempfile.tempdir = sys.argv[2]; from strata_agent.gpu_gate import GpuGate; "
            "g = GpuGate('p')\nwith g.exclusive('m'):\n    print('held', flush=True); time.sleep(0.8)")
    other = subprocess.Popen([sys.executable, "-c", code, str(AGENT_DIR), str(tmp_path)],
                             stdout=subprocess.PIPE, text=True)
    assert other.stdout.readline().strip() == "held"
    reader = GpuGate("p")
    with reader.shared("checks"):
        pass
    other.wait(10)
    assert reader.figures["checks_wait_s"] >= 0.4


def test_verify_reports_the_gate(tmp_path):
    client = AgentClient(tmp_path)
    try:
        reply, _ = client.request("verify", {"task": str(REPO / "suites" / "tasks-smoke" / "vector_add.py"),
                                             "interpret": True, "gpu_gate": "test-gate"}, timeout=240)
    finally:
        client.close()
    gate = reply["result"]["gpu_gate"]
    assert "strata-gpu-gate-test-gate-" in gate["path"]  # interpret: CUDA_VISIBLE_DEVICES is ""
    assert gate["checks_wait_s"] >= 0 and gate["checks_held_s"] > 0


def test_a_waiting_writer_is_not_starved_by_later_readers(monkeypatch, tmp_path):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    began = threading.Event()
    holder = hold_in_thread(GpuGate("w"), "shared", 0.6, began)
    began.wait(5)
    order = []
    writer_asked = threading.Event()

    def write():
        writer_asked.set()
        with GpuGate("w").exclusive("measure"):
            order.append("writer")
            time.sleep(0.2)
    writer = threading.Thread(target=write)
    writer.start()
    writer_asked.wait(5)
    time.sleep(0.1)  # the writer now waits for the first reader
    with GpuGate("w").shared("checks"):  # a later reader goes after the writer
        order.append("late reader")
    holder.join()
    writer.join()
    assert order == ["writer", "late reader"]


def test_cached_ceilings_are_read_without_the_gate(tmp_path, monkeypatch):
    """A timing call reads the ceilings' cache outside the gate; only a measurement holds it
    alone, and a worker that got the gate after another measured reads that one's figures."""
    from strata_agent import roofline
    from strata_agent.backends.nvidia import ceilings
    monkeypatch.setattr(roofline, "CACHE_PATH", tmp_path / "ceilings.json")
    measured = []
    monkeypatch.setattr(ceilings, "measure_ceilings", lambda: measured.append(1) or {"copy_gbps": 1000.0})
    entered = []

    @contextlib.contextmanager
    def measuring():
        entered.append(1)
        yield

    device = {"name": "GPU", "driver": "1"}
    first = ceilings.load_or_measure(device, measuring=measuring)
    assert (first["cached"], len(entered), len(measured)) == (False, 1, 1)
    second = ceilings.load_or_measure(device, measuring=measuring)
    assert (second["cached"], second["copy_gbps"], len(entered), len(measured)) == (True, 1000.0, 1, 1)
    ceilings.load_or_measure(device, refresh=True, measuring=measuring)
    assert (len(entered), len(measured)) == (2, 2)
    # Another worker measured while this one waited for the gate: no second measurement.
    (tmp_path / "ceilings.json").write_text("{}")

    @contextlib.contextmanager
    def another_worker_measures_meanwhile():
        (tmp_path / "ceilings.json").write_text(json.dumps({roofline.cache_key(device): {"copy_gbps": 7.0}}))
        yield

    third = ceilings.load_or_measure(device, measuring=another_worker_measures_meanwhile)
    assert (third["cached"], third["copy_gbps"], len(measured)) == (True, 7.0, 2)


def test_verify_holds_the_gate_per_check_not_per_verify(tmp_path):
    """A timer waiting for the GPU waits for one check, not a whole verify (2026-12-06 H100 run:
    checks held the gate shared for a median 12.6 s per task and timings queued behind them)."""
    from strata_agent.task_loader import load_task
    from strata_agent.verify import verify_task
    task_file = tmp_path / "plus_one.py"
    task_file.write_text(
        "import torch\nN = 64\nSTRATA_TASK = {'extra_shapes': [{'N': 33}]}\n"
        "class Model(torch.nn.Module):\n    def forward(self, x):\n        return x + 1\n"
        "class ModelNew(torch.nn.Module):\n    def forward(self, x):\n        return x + 1\n"
        "def get_inputs():\n    return [torch.randn(N)]\n"
        "def get_init_inputs():\n    return []\n")
    holds = {"entered": 0, "inside": False, "nested": False}

    @contextlib.contextmanager
    def hold():
        holds["nested"] |= holds["inside"]
        holds["entered"] += 1
        holds["inside"] = True
        try:
            yield
        finally:
            holds["inside"] = False

    result = verify_task(load_task(str(task_file)), {"draws": 3}, lambda *a, **k: None, hold=hold)
    shapes, draws = 2, 3  # (the verdict fails: no Triton kernel; the holds are what is checked)
    assert len(result["checks"]) == shapes * draws
    assert holds["entered"] == shapes * (1 + draws)  # each shape's models, then each draw
    assert not holds["nested"]


def test_the_gate_refuses_to_nest(monkeypatch, tmp_path):
    """flock on one file converts a held lock rather than nesting it: a nested hold is a bug."""
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    gate = GpuGate("nest")
    with gate.shared("warmup"):
        try:
            with gate.exclusive("ceilings"):
                raise AssertionError("a nested hold was granted")
        except RuntimeError as error:
            assert "already held" in str(error)
    with gate.exclusive("measure"):  # released properly: the next hold is granted
        pass


def test_roofline_measures_the_ceilings_alone_and_runs_the_reference_shared(monkeypatch, tmp_path):
    """The first time call on a device measures its ceilings under the exclusive gate, then runs
    the reference for the work counts under the shared one, one after the other (never nested)."""
    from strata_agent import roofline
    from strata_agent.backends.nvidia import ceilings, task_time
    from strata_agent.task_loader import load_task
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    monkeypatch.setattr(roofline, "CACHE_PATH", tmp_path / "ceilings.json")
    monkeypatch.setattr(ceilings, "measure_ceilings", lambda: {"copy_gbps": 1000.0})
    task_file = tmp_path / "plus_one.py"
    task_file.write_text(
        "import torch\nN = 64\nSTRATA_TASK = {'flops': 'N', 'bytes': '8 * N'}\n"
        "class Model(torch.nn.Module):\n    def forward(self, x):\n        return x + 1\n"
        "class ModelNew(Model):\n    pass\n"
        "def get_inputs():\n    return [torch.randn(N)]\n"
        "def get_init_inputs():\n    return []\n")
    task = load_task(str(task_file))
    gate = GpuGate("roofline")
    section = task_time.roofline_section(task, [], task.module.get_inputs(), {"name": "GPU"}, False,
                                         lambda *a, **k: None, gate)
    assert section["ceilings"]["copy_gbps"] == 1000.0 and not section["ceilings"]["cached"]
    assert "ceilings_held_s" in gate.figures and "warmup_held_s" in gate.figures

"""The task worker's environment: interpret mode is a CPU run even on a GPU host."""
from strata_agent.task_runner import worker_env


def test_interpret_hides_gpus_and_turns_on_the_interpreter():
    env = worker_env(True)
    assert env["TRITON_INTERPRET"] == "1"
    assert env["CUDA_VISIBLE_DEVICES"] == ""


def test_gpu_run_keeps_the_callers_devices(monkeypatch):
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "1")
    env = worker_env(False)
    assert "TRITON_INTERPRET" not in env or env["TRITON_INTERPRET"] != "1"
    assert env["CUDA_VISIBLE_DEVICES"] == "1"

"""bench/gpu/time_task_files.py off a GPU: a missing file and a missing GPU are clear errors, and
--verify leaves a wrong candidate out before any timing."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "bench" / "gpu" / "time_task_files.py"
SMOKE = ROOT / "suites" / "tasks-smoke"


def run(*args):
    env = {**os.environ, "TRITON_INTERPRET": "1", "CUDA_VISIBLE_DEVICES": ""}
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True,
                          env=env, timeout=600)


def test_missing_file_is_named(tmp_path):
    done = run(str(tmp_path / "absent.py"), "--out", str(tmp_path / "o.json"))
    assert done.returncode == 2 and "absent.py" in done.stderr


def test_wrong_candidate_is_left_out_and_no_gpu_is_said(tmp_path):
    done = run(str(SMOKE / "vector_add.py"), str(SMOKE / "wrong_off_by_one.py"), "--verify",
               "--out", str(tmp_path / "o.json"))
    assert done.returncode == 4, done.stderr
    assert "timing needs a CUDA GPU" in done.stderr
    assert "wrong_off_by_one" not in done.stderr.split("cannot time", 1)[1].split(":")[0]

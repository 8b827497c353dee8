"""bench/gpu/agent_seconds.py: per-key totals and medians, and the exclusive share of the wall time."""
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench" / "gpu"))
import agent_seconds  # noqa: E402


def test_totals_medians_and_exclusive_share():
    results = {"tasks": [
        {"task": "a", "wall_s": 100, "agent_s": {"time": 40, "measure_wait_s": 5, "measure_held_s": 10,
                                                  "checks_held_s": 30, "warmup_held_s": 8}},
        {"task": "b", "wall_s": 50, "agent_s": {"time": 20, "measure_held_s": 4, "profile_held_s": 1}},
        {"task": "c", "wall_s": 10},
    ]}
    summary = agent_seconds.summarize(results)
    assert summary["tasks"] == 3 and summary["tasks_with_agent_s"] == 2
    assert summary["keys"]["time"] == {"total_s": 60.0, "median_s": 30.0, "tasks": 2}
    # Shared phases (checks, warmup) and waits are not exclusive holds.
    assert summary["exclusive_held_s"] == 15.0
    assert summary["exclusive_share_of_wall"] == round(15 / 160, 3)


def test_unreadable_file_is_a_clear_error(tmp_path, capsys):
    bad = tmp_path / "results.json"
    bad.write_text("{not json")
    assert agent_seconds.main([str(bad)]) == 2
    assert str(bad) in capsys.readouterr().err


def test_writes_the_summary(tmp_path):
    source = tmp_path / "r.json"
    source.write_text(json.dumps({"tasks": [{"task": "a", "wall_s": 3, "agent_s": {"verify": 2}}]}))
    out = tmp_path / "s.json"
    assert agent_seconds.main([str(source), "--json", str(out)]) == 0
    assert json.loads(out.read_text())["keys"]["verify"]["total_s"] == 2.0

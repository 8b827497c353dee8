"""JSON-RPC framing and the `info` method, through a real agent subprocess."""
from __future__ import annotations

import json

from conftest import AgentClient


def test_info_reports_versions_and_targets(agent):
    reply, _ = agent.request("info")
    info = reply["result"]
    assert info["protocol"] == 1
    assert info["triton"] == "3.6.0"
    assert info["targets"] == ["sm_80", "sm_90", "sm_100"]
    assert info["python"].startswith("3.")
    assert set(info["methods"]) == {"info", "compile", "ast", "shutdown", "run_task", "verify",
                                    "time", "profile", "ceilings"}
    assert isinstance(info["gpus"], list)
    for gpu in info["gpus"]:
        assert gpu["target"].startswith("sm_")


def test_unknown_method_is_method_not_found(agent):
    reply, _ = agent.request("frobnicate")
    assert reply["error"]["code"] == -32601
    assert "frobnicate" in reply["error"]["message"]


def test_unparseable_line_is_parse_error(agent):
    agent.send_raw("{not json")
    reply = agent.messages.get(timeout=30)
    assert reply["error"]["code"] == -32700
    assert reply["id"] is None


def test_request_without_method_is_invalid_request(agent):
    agent.send_raw(json.dumps({"jsonrpc": "2.0", "id": "x1"}))
    reply, _ = agent.wait_reply("x1", timeout=30)
    assert reply["error"]["code"] == -32600


def test_params_that_are_not_an_object_are_invalid_params(agent):
    agent.send_raw(json.dumps({"jsonrpc": "2.0", "id": "x2", "method": "info", "params": [1]}))
    reply, _ = agent.wait_reply("x2", timeout=30)
    assert reply["error"]["code"] == -32602


def test_compile_without_source_path_is_invalid_params(agent):
    reply, _ = agent.request("compile", {"spec": {}})
    assert reply["error"]["code"] == -32602
    assert "source_path" in reply["error"]["message"]


def test_notification_gets_no_reply(agent):
    agent.send_raw(json.dumps({"jsonrpc": "2.0", "method": "info"}))
    reply, _ = agent.request("info")  # the next message for us is this reply, not a stray one
    assert reply["id"] == agent.next_id - 1
    assert agent.messages.empty()


def test_shutdown_replies_then_exits():
    client = AgentClient()
    reply, _ = client.request("shutdown", timeout=30)
    assert reply["result"] == {"ok": True}
    assert client.process.wait(timeout=30) == 0

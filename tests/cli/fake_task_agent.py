"""A stand-in host agent for strata-cli's task-command tests (installed by tst_task_cli as
strata_agent/__main__.py in a temporary folder that STRATA_AGENT_DIR points at).

Speaks the agent protocol (agent/PROTOCOL.md) over stdio. $STRATA_FAKE_REPLIES names a JSON file
{method: reply}; a reply is {"result": ...} or {"error": {...}}, or {"exit": N} to die with
status N while the request is pending, or {"garbage": "text"} to answer with a non-JSON line.
Every request is appended to $STRATA_FAKE_LOG (one JSON line each) so that tests can check what
the CLI sent. Two progress notifications precede each reply.
"""
import json
import os
import sys

replies = json.load(open(os.environ["STRATA_FAKE_REPLIES"], encoding="utf-8"))
log_path = os.environ.get("STRATA_FAKE_LOG")


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    request = json.loads(line)
    if log_path:
        with open(log_path, "a", encoding="utf-8") as log:
            log.write(json.dumps(request) + "\n")
    method, request_id = request["method"], request.get("id")
    if method == "shutdown":
        send({"jsonrpc": "2.0", "id": request_id, "result": {"ok": True}})
        break
    send({"jsonrpc": "2.0", "method": "progress",
          "params": {"id": request_id, "message": "worker started (pid 4242)", "worker_pid": 4242}})
    send({"jsonrpc": "2.0", "method": "progress", "params": {"id": request_id, "message": f"fake {method}"}})
    reply = replies.get(method)
    if reply is None:
        send({"jsonrpc": "2.0", "id": request_id,
              "error": {"code": -32601, "message": f"method not found: {method}"}})
    elif "exit" in reply:
        print("fake agent: dying on purpose", file=sys.stderr, flush=True)
        sys.exit(reply["exit"])
    elif "garbage" in reply:
        sys.stdout.write(reply["garbage"] + "\n")
        sys.stdout.flush()
    else:
        send({"jsonrpc": "2.0", "id": request_id, **reply})

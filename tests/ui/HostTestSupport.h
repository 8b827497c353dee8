#pragma once
// Stand-ins for hosts in the GUI tests: a fake strata_agent package that replays a session
// recorded from the real agent (tests/ui/hosts/*.jsonl), and a stand-in `ssh` on PATH that logs
// its command line and runs the remote command here.
#include <QDir>
#include <QFile>
#include <QString>
#include <QTemporaryDir>

namespace strata::test {

inline QString hostSession(const QString &name)
{
    return QStringLiteral(STRATA_UI_TEST_DIR "/hosts/") + name;
}

// The replayer: each request gets the recorded reply (and progress notifications) of a recorded
// request of the same method, the one whose `refresh` flag matches if there is one, with ids
// rewritten. Every request is appended to requests.jsonl next to the package. `shutdown` ends it.
constexpr const char *kReplayAgent = R"(import json, os, sys, time
here = os.path.dirname(os.path.abspath(__file__))
recorded = {}
with open(os.path.join(here, "session.jsonl")) as session:
    for line in session:
        message = json.loads(line)
        if "method" in message and "id" in message:
            recorded.setdefault(message["method"], []).append((message.get("params", {}), []))
            last = recorded[message["method"]][-1][1]
        else:
            last.append(message)
delay_s = float(open(os.path.join(here, "delay_s")).read())
log = open(os.path.join(os.path.dirname(here), "requests.jsonl"), "a")
for line in sys.stdin:
    request = json.loads(line)
    log.write(json.dumps(request) + "\n")
    log.flush()
    method, rid = request.get("method"), request.get("id")
    if method == "shutdown":
        print(json.dumps({"jsonrpc": "2.0", "id": rid, "result": {"ok": True}}), flush=True)
        break
    if method not in recorded:
        print(json.dumps({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "unknown method"}}), flush=True)
        continue
    refresh = bool(request.get("params", {}).get("refresh"))
    params, messages = next((r for r in recorded[method] if bool(r[0].get("refresh")) == refresh), recorded[method][0])
    for message in messages:
        if "id" in message:
            time.sleep(delay_s)
            message["id"] = rid
        else:
            message["params"]["id"] = rid
        print(json.dumps(message), flush=True)
)";

// A folder holding the fake strata_agent package that replays `sessionFile`; its replies wait
// `delaySeconds` (so tests can act while a request is pending).
inline QString writeReplayAgent(const QTemporaryDir &dir, const QString &sessionFile, double delaySeconds = 0)
{
    const QString root = dir.filePath(QStringLiteral("agent"));
    const QString package = root + QStringLiteral("/strata_agent");
    QDir().mkpath(package);
    auto write = [](const QString &path, const QByteArray &bytes) {
        QFile file(path);
        return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
    };
    QFile session(sessionFile);
    if (!session.open(QIODevice::ReadOnly))
        return {};
    if (!write(package + QStringLiteral("/__init__.py"), {})
        || !write(package + QStringLiteral("/__main__.py"), kReplayAgent)
        || !write(package + QStringLiteral("/session.jsonl"), session.readAll())
        || !write(package + QStringLiteral("/delay_s"), QByteArray::number(delaySeconds)))
        return {};
    return root;
}

// The requests the replayer received, one JSON object per line.
inline QStringList agentRequests(const QString &agentRoot)
{
    QFile file(agentRoot + QStringLiteral("/requests.jsonl"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

// A stand-in `ssh` in dir: appends its arguments to $STRATA_FAKE_SSH_LOG; with
// $STRATA_FAKE_SSH_FAIL set, prints it to stderr and exits 255 as ssh does; else drops ssh's own
// options and the host and runs the remote command here with PYTHONPATH=$STRATA_FAKE_SSH_AGENT_DIR.
// The remote `python3` stands for the host's python: $STRATA_PYTHON when set (the one with triton).
inline bool writeStandInSsh(const QString &dir)
{
    QFile script(dir + QStringLiteral("/ssh"));
    if (!script.open(QIODevice::WriteOnly))
        return false;
    script.write("#!/bin/sh\n"
                 "printf '%s\\n' \"$*\" >> \"$STRATA_FAKE_SSH_LOG\"\n"
                 "if [ -n \"$STRATA_FAKE_SSH_FAIL\" ]; then echo \"$STRATA_FAKE_SSH_FAIL\" >&2; exit 255; fi\n"
                 "while [ \"$1\" = -T ] || [ \"$1\" = -o ]; do\n"
                 "  if [ \"$1\" = -o ]; then shift; fi\n"
                 "  shift\n"
                 "done\n"
                 "shift\n"
                 "export PYTHONPATH=\"$STRATA_FAKE_SSH_AGENT_DIR\"\n"
                 "if [ \"$1\" = python3 ] && [ -n \"$STRATA_PYTHON\" ]; then shift; exec \"$STRATA_PYTHON\" \"$@\"; fi\n"
                 "exec \"$@\"\n");
    script.close();
    return script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
}

} // namespace strata::test

// The task-method results read into typed structs: from JSON written after the examples in
// agent/PROTOCOL.md, from real agent replies captured on an H200 (fixtures/h200, made by
// capture_agent_outputs.py), and malformed results that must fail with the field named.
#include "tasks/ProfileResult.h"
#include "tasks/TaskRun.h"
#include "tasks/Timing.h"
#include "tasks/Verdict.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using namespace strata;

namespace {

// The "result" of a captured reply in fixtures/h200/NAME.json.
QJsonObject capturedResult(const QString &name)
{
    QFile file(QStringLiteral(STRATA_TASK_FIXTURES "/h200/%1.json").arg(name));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing fixture %s", qPrintable(file.fileName()));
    return QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("reply")).toObject()
        .value(QStringLiteral("result")).toObject();
}

QJsonObject json(const char *text)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray(text), &error);
    if (error.error != QJsonParseError::NoError)
        qFatal("bad test JSON: %s", qPrintable(error.errorString()));
    return doc.object();
}

// The run_task example of agent/PROTOCOL.md, with its "..." filled in.
const char *const kProtocolRunTask = R"json({"protocol": 1, "task": "/abs/task.py", "device": "cuda",
 "meta": {"category": "elementwise"}, "duration_s": 1.2, "outputs": [{"shape": [4099], "dtype": "float32"}],
 "launch_count": 1, "launches": [], "capture_errors": [], "memory_cap": "none",
 "kernels": [{"kernel": "add_kernel", "source_path": "/abs/task.py", "line": 19,
              "grid": [5, 1, 1], "num_warps": 4, "num_stages": 3, "launches": 1,
              "args": [{"name": "x_ptr", "type": "*fp32", "shape": [4099], "dtype": "float32",
                        "stride": [1], "device": "cuda:0"},
                       {"name": "n_elements", "type": "i32", "value": 4099}],
              "spec": {"kernel": "add_kernel", "signature": {"x_ptr": "*fp32"}, "constexprs": {"BLOCK": 1024},
                       "divisibility_16": ["x_ptr", "y_ptr", "out_ptr"], "equal_to_1": [],
                       "options": {"num_warps": 4, "num_stages": 3}, "target": "sm_90"},
              "problems": [], "mode": "compiled", "stream": 0, "default_stream": true,
              "ptx_sha256": "abc123", "compiled": {"name": "add_kernel", "shared": 0}}]})json";

const char *const kProtocolVerify = R"json({"protocol": 1, "task": "/abs/task.py", "verdict": "fail",
 "draws_per_shape": 3, "shapes": [{}, {"N": 5003}],
 "reasons": [{"kind": "torch_compute_in_candidate", "severity": "fail", "ops": {"_softmax": 1},
              "reference_ops_used": ["_softmax"], "message": "ModelNew.forward ran aten._softmax",
              "shape": 0, "draw": 0, "group": 0, "occurrences": 6}],
 "checks": [{"shape": 0, "draw": 0, "group": 0, "seed": 20261201, "order": "reference_first",
             "launches": 1, "torch_ops": {"empty_like": 1},
             "outputs": [{"output": 0, "shape": [4099], "dtype": "float32", "tolerance": 0.0001,
                          "non_finite": 0, "rel_error": 0.0, "reference_rel_error": 0.0}]}],
 "kernels": []})json";

const char *const kProtocolTime = R"json({"protocol": 1, "tasks": ["/abs/task.py"], "shape": null,
 "stop_reason": "converged", "timing_s": 1.4,
 "device": {"name": "NVIDIA H200", "capability": "sm_90", "multiprocessors": 132,
            "l2_bytes": 62914560, "memory_bytes": 150109880320, "driver": "580.159.04"},
 "versions": {"python": "3.12.3", "torch": "2.11.0+cu130", "triton": "3.6.0", "cuda": "13.0", "agent": "0.1.0"},
 "clocks_before": {"gpus": [{"name": "NVIDIA H200", "clocks_sm": 1980, "clocks_mem": 3201,
                             "clocks_max_sm": 1980, "pstate": "P0", "temperature_gpu": 39}], "source": "nvidia-smi"},
 "clocks_after": {"gpus": [], "error": "nvidia-smi not found"},
 "candidates": {"triton": {"method": "cuda_graph", "l2": "flushed", "error": null, "notes": [],
                           "n": 30, "median_ms": 0.66, "q1_ms": 0.659, "q3_ms": 0.661, "iqr_ms": 0.002,
                           "min_ms": 0.65, "max_ms": 0.7, "mean_ms": 0.665, "median_ci_rel": 0.001},
                "compile": {"error": "torch.compile failed: no C compiler", "n": 0}},
 "comparisons": {"speedup_vs_eager": 0.96, "self_check_median_diff": 0.0012, "l2_flush_effect:triton": 1.51},
 "roofline": {"ceilings": {"copy_bandwidth_gbs": 4200.0, "matmul_tflops": {"fp32": 50.0, "fp16": 760.0}},
              "counts": {"flops": 1000, "bytes": 2000000, "bytes_source": "STRATA_TASK"}, "category": "memory",
              "per_candidate": {"triton": {"precision_ceiling": "fp32", "memory_floor_ms": 0.61, "compute_floor_ms": 0.001,
                                           "bound": "memory", "sol_pct": 93.1, "achieved_gbs": 3900.0,
                                           "achieved_tflops": 0.0015, "arithmetic_intensity": 0.125},
                                "compile": {"error": "no time"}}}})json";

const char *const kProtocolProfileUnavailable = R"json({"protocol": 1, "task": "/abs/task.py", "kernels": [],
 "ncu": {"status": "counters_unavailable", "message": "ncu may not read the GPU counters (ERR_NVGPUCTRPERM)",
         "path": "/usr/local/cuda/bin/ncu", "version": "Version 2025.3.1.0"}})json";

} // namespace

class TestTaskResults : public QObject {
    Q_OBJECT

private slots:
    void runTaskFromProtocolExample();
    void runTaskFromH200();
    void matmulRunFromH200();
    void verifyFromProtocolExample();
    void verifyPassFromH200();
    void verifyFailuresFromH200();
    void verifyWorkerFailureFromH200();
    void timeFromProtocolExample();
    void timeFromH200();
    void ceilingsFromH200();
    void profileFromH200();
    void profileWithoutCounters();
    void malformedResultsNameTheField_data();
    void malformedResultsNameTheField();
};

void TestTaskResults::runTaskFromProtocolExample()
{
    Expected<TaskRun> run = parseTaskRun(json(kProtocolRunTask));
    QVERIFY2(run, qPrintable(run ? QString() : run.error().toString()));
    QCOMPARE(run->task, QStringLiteral("/abs/task.py"));
    QCOMPARE(run->kernels.size(), 1);
    const CapturedKernel &k = run->kernels[0];
    QCOMPARE(k.grid, (QVector<qint64>{5, 1, 1}));
    QCOMPARE(k.line, 19);
    QCOMPARE(k.target(), QStringLiteral("sm_90"));
    QCOMPARE(k.args.size(), 2);
    QVERIFY(k.args[0].isTensor());
    QCOMPARE(k.args[0].shape, QVector<qint64>{4099});
    QVERIFY(!k.args[1].isTensor());
    QCOMPARE(k.args[1].value.toInt(), 4099);
    QCOMPARE(k.summary(), QStringLiteral("add_kernel grid (5, 1, 1), 4 warps, 3 stages"));
    CapturedKernel withoutWarps = k;  // an Ascend launch: neither warps nor stages captured
    withoutWarps.numWarps = 0;
    withoutWarps.numStages = 0;
    QCOMPARE(withoutWarps.summary(), QStringLiteral("add_kernel grid (5, 1, 1)"));
    QCOMPARE(run->outputs[0].dtype, QStringLiteral("float32"));
}

void TestTaskResults::runTaskFromH200()
{
    Expected<TaskRun> run = parseTaskRun(capturedResult(QStringLiteral("run_task-vector_add")));
    QVERIFY2(run, qPrintable(run ? QString() : run.error().toString()));
    QCOMPARE(run->device, QStringLiteral("cuda"));
    QCOMPARE(run->launchCount, 1);
    QCOMPARE(run->memoryCap, QStringLiteral("none"));
    QCOMPARE(run->meta.value(QStringLiteral("bytes")).toString(), QStringLiteral("3 * N * 4"));
    QCOMPARE(run->outputs[0].shape, QVector<qint64>{16777216});
    const CapturedKernel &k = run->kernels.at(0);
    QCOMPARE(k.kernel, QStringLiteral("add_kernel"));
    QVERIFY(k.sourcePath.endsWith(QStringLiteral("suites/tasks-smoke/vector_add.py")));
    QCOMPARE(k.line, 19);                                      // the def line
    QCOMPARE(k.grid, (QVector<qint64>{16384, 1, 1}));          // cdiv(1 << 24, 1024)
    QCOMPARE(k.mode, QStringLiteral("compiled"));
    QCOMPARE(k.ptxSha256, QStringLiteral("057034272a3aba1761fa4c5973ed3d82199a13b9ebab12c3ba21c6e26e562d2d"));
    // 1 << 24 is a multiple of 16, so n_elements is specialized too (unlike at 4099 under the interpreter).
    QCOMPARE(k.spec.value(QStringLiteral("divisibility_16")).toArray(),
             (QJsonArray{QStringLiteral("x_ptr"), QStringLiteral("y_ptr"), QStringLiteral("out_ptr"), QStringLiteral("n_elements")}));
    QCOMPARE(k.args.size(), 5);
    QCOMPARE(k.args[4].name, QStringLiteral("BLOCK"));
    QCOMPARE(k.args[4].value.toInt(), 1024);
    QCOMPARE(k.compiled.value(QStringLiteral("num_warps")).toInt(), 4);
}

void TestTaskResults::matmulRunFromH200()
{
    Expected<TaskRun> run = parseTaskRun(capturedResult(QStringLiteral("run_task-matmul_fp16")));
    QVERIFY(run);
    const CapturedKernel &k = run->kernels.at(0);
    QCOMPARE(k.kernel, QStringLiteral("matmul_kernel"));
    QCOMPARE(k.line, 22);
    QCOMPARE(k.grid, (QVector<qint64>{32, 32, 1}));
    QCOMPARE(k.numWarps, 8);
    QCOMPARE(k.spec.value(QStringLiteral("equal_to_1")).toArray(),
             (QJsonArray{QStringLiteral("stride_ak"), QStringLiteral("stride_bn"), QStringLiteral("stride_cn")}));
    QCOMPARE(k.spec.value(QStringLiteral("constexprs")).toObject().value(QStringLiteral("BLOCK_K")).toInt(), 64);
}

void TestTaskResults::verifyFromProtocolExample()
{
    Expected<Verdict> v = parseVerdict(json(kProtocolVerify));
    QVERIFY2(v, qPrintable(v ? QString() : v.error().toString()));
    QVERIFY(!v->passed());
    QCOMPARE(v->failureCount(), 1);
    QCOMPARE(v->reasons[0].occurrences, 6);
    QCOMPARE(v->reasons[0].detail.value(QStringLiteral("ops")).toObject().value(QStringLiteral("_softmax")).toInt(), 1);
    QCOMPARE(v->shapes.size(), 2);
    QCOMPARE(v->checks[0].torchOps.value(QStringLiteral("empty_like")), 1);
    QCOMPARE(v->checks[0].outputs[0].tolerance, std::optional<double>(0.0001));
    QCOMPARE(v->checks[0].seed, qint64(20261201));
}

void TestTaskResults::verifyPassFromH200()
{
    Expected<Verdict> v = parseVerdict(capturedResult(QStringLiteral("verify-vector_add")));
    QVERIFY2(v, qPrintable(v ? QString() : v.error().toString()));
    QVERIFY(v->passed());
    QVERIFY(v->reasons.isEmpty());
    QCOMPARE(v->drawsPerShape, 3);
    QCOMPARE(v->checks.size(), 6);   // 3 draws x (the task's shape + N=5003)
    QCOMPARE(v->shapes.at(1).toObject().value(QStringLiteral("N")).toInt(), 5003);
    QSet<QString> orders;
    for (const VerifyCheck &check : v->checks) {
        orders.insert(check.order);
        QCOMPARE(check.outputs.size(), 1);
        QCOMPARE(*check.outputs[0].tolerance, 1e-4);
        QVERIFY(*check.outputs[0].relError < 1e-4);
    }
    QCOMPARE(orders, (QSet<QString>{QStringLiteral("reference_first"), QStringLiteral("candidate_first")}));
    QCOMPARE(v->kernels.at(0).kernel, QStringLiteral("add_kernel"));
}

void TestTaskResults::verifyFailuresFromH200()
{
    Expected<Verdict> cheat = parseVerdict(capturedResult(QStringLiteral("verify-cheat_reference_op")));
    QVERIFY(cheat);
    QVERIFY(!cheat->passed());
    QCOMPARE(cheat->reasons.size(), 1);
    QCOMPARE(cheat->reasons[0].kind, QStringLiteral("torch_compute_in_candidate"));
    QVERIFY(cheat->reasons[0].message.contains(QStringLiteral("aten._softmax")));
    QCOMPARE(cheat->reasons[0].occurrences, 3);

    Expected<Verdict> wrong = parseVerdict(capturedResult(QStringLiteral("verify-wrong_off_by_one")));
    QVERIFY(wrong);
    QCOMPARE(wrong->reasons.at(0).kind, QStringLiteral("non_finite_output"));
    QVERIFY(wrong->reasons[0].message.startsWith(QStringLiteral("output 0 has 1 NaN/Inf elements of 65536")));
    QCOMPARE(wrong->reasons[0].located(), wrong->reasons[0].message);   // no line for a wrong value
}

// A candidate that died is a "fail" verdict with no checks: here, seen on the H200, `interpret`
// with the agent's memory cap made CUDA's own start-up run out of memory in get_inputs().
void TestTaskResults::verifyWorkerFailureFromH200()
{
    Expected<Verdict> v = parseVerdict(capturedResult(QStringLiteral("interpret-verify-vector_add")));
    QVERIFY2(v, qPrintable(v ? QString() : v.error().toString()));
    QVERIFY(!v->passed());
    QCOMPARE(v->drawsPerShape, 0);
    QVERIFY(v->checks.isEmpty());
    QVERIFY(v->kernels.isEmpty());
    const VerifyReason &r = v->reasons.at(0);
    QCOMPARE(r.kind, QStringLiteral("cuda_error"));
    QCOMPARE(r.line, 42);   // get_inputs(): torch.randn(N, device=DEVICE)
    QVERIFY(r.file.endsWith(QStringLiteral("suites/tasks-smoke/vector_add.py")));
    QVERIFY(r.located().startsWith(r.file + QStringLiteral(":42: AcceleratorError: CUDA error: out of memory")));
    QCOMPARE(r.detail.value(QStringLiteral("error_type")).toString(), QStringLiteral("AcceleratorError"));
    QCOMPARE(r.shape, -1);
}

void TestTaskResults::timeFromProtocolExample()
{
    Expected<Timing> t = parseTiming(json(kProtocolTime));
    QVERIFY2(t, qPrintable(t ? QString() : t.error().toString()));
    QCOMPARE(t->candidates.size(), 2);
    QCOMPARE(t->candidates[0].name, QStringLiteral("triton"));   // first, though "compile" sorts before it
    QVERIFY(t->candidates[0].ok());
    QVERIFY(!t->candidate(QStringLiteral("compile"))->ok());
    QVERIFY(t->candidate(QStringLiteral("compile"))->error.contains(QStringLiteral("no C compiler")));
    QCOMPARE(t->clocksBefore.at(0).smMhz, std::optional<double>(1980));
    QVERIFY(t->clocksAfter.isEmpty());
    QCOMPARE(t->comparisons.value(QStringLiteral("l2_flush_effect:triton")), 1.51);
    QVERIFY(t->roofline);
    QCOMPARE(t->roofline->estimate(QStringLiteral("triton"))->solPct, std::optional<double>(93.1));
    QCOMPARE(t->roofline->estimate(QStringLiteral("compile"))->error, QStringLiteral("no time"));
    QVERIFY(t->shape.isNull());
}

void TestTaskResults::timeFromH200()
{
    Expected<Timing> t = parseTiming(capturedResult(QStringLiteral("time-vector_add")));
    QVERIFY2(t, qPrintable(t ? QString() : t.error().toString()));
    QCOMPARE(t->device.name, QStringLiteral("NVIDIA H200"));
    QCOMPARE(t->device.l2Bytes, qint64(62914560));
    QCOMPARE(t->versions.value(QStringLiteral("triton")), QStringLiteral("3.6.0"));
    QCOMPARE(t->stopReason, QStringLiteral("converged"));
    QCOMPARE(t->l2FlushBytes, qint64(4) * 62914560);   // 4x the L2
    QStringList names;
    for (const CandidateTiming &c : t->candidates)
        names.append(c.name);
    QCOMPARE(names, (QStringList{"triton", "eager", "triton#2", "triton/warm-l2"}));
    const CandidateTiming *triton = t->candidate(QStringLiteral("triton"));
    QCOMPARE(triton->n, 110);
    QCOMPARE(triton->method, QStringLiteral("cuda_graph"));
    QVERIFY(qAbs(*triton->medianMs - 0.052864) < 1e-6);
    QCOMPARE(t->candidate(QStringLiteral("triton/warm-l2"))->l2, QStringLiteral("warm"));
    const RooflineEstimate *sol = t->roofline->estimate(QStringLiteral("triton"));
    QCOMPARE(sol->bound, QStringLiteral("memory"));
    QVERIFY(qAbs(*sol->solPct - 89.779) < 0.01);
    QVERIFY(sol->implausible.isEmpty());
    QCOMPARE(*t->roofline->bytes, 201326592.0);   // 3 * 2^24 * 4, from STRATA_TASK
    QVERIFY(t->roofline->ceilings.cached);
}

void TestTaskResults::ceilingsFromH200()
{
    Expected<CeilingsResult> c = parseCeilingsResult(capturedResult(QStringLiteral("ceilings")));
    QVERIFY2(c, qPrintable(c ? QString() : c.error().toString()));
    QCOMPARE(c->device.capability, QStringLiteral("sm_90"));
    QVERIFY(qAbs(*c->ceilings.copyBandwidthGbs - 4241.96) < 0.01);
    QCOMPARE(c->ceilings.copyBandwidthByMethodGbs.keys(), (QStringList{"kernel", "memcpy"}));
    QCOMPARE(c->ceilings.matmulTflops.keys(), (QStringList{"bf16", "fp16", "fp32", "tf32"}));
    QVERIFY(c->ceilings.matmulTflops.value(QStringLiteral("bf16")) > 700);
    QVERIFY(!c->ceilings.cached);
}

void TestTaskResults::profileFromH200()
{
    Expected<ProfileResult> p = parseProfileResult(capturedResult(QStringLiteral("profile-vector_add")));
    QVERIFY2(p, qPrintable(p ? QString() : p.error().toString()));
    QVERIFY(p->ok());
    QCOMPARE(p->sections.size(), 7);
    QCOMPARE(p->profiled.size(), 1);
    const ProfiledKernel &k = p->profiled[0];
    QCOMPARE(k.kernel, QStringLiteral("add_kernel"));
    QCOMPARE(k.grid, QStringLiteral("(16384, 1, 1)"));
    QCOMPARE(k.sections.size(), 7);
    const NcuMetric *memory = k.find(QStringLiteral("Speed Of Light"), QStringLiteral("Memory Throughput"));
    QVERIFY(memory);
    QCOMPARE(*memory->number(), 84.27);
    QCOMPARE(memory->unit, QStringLiteral("%"));
    // The same metric name in another section has another unit: the section decides.
    QCOMPARE(k.find(QStringLiteral("Memory Workload"), QStringLiteral("Memory Throughput"))->unit, QStringLiteral("Tbyte/s"));
    QCOMPARE(*k.find(QStringLiteral("Occupancy"), QStringLiteral("Achieved Occupancy"))->number(), 82.1);
    const NcuMetric *spilling = k.find(QStringLiteral("Memory Workload"), QStringLiteral("Local Memory Spilling Request Overhead"));
    QVERIFY(!spilling->number());   // ncu printed "no data"
    QCOMPARE(k.rules.size(), 5);
    QCOMPARE(k.rules[1].rule, QStringLiteral("CPIStall"));
    QCOMPARE(k.rules[1].estimatedSpeedup, std::optional<double>(73.64));
    QVERIFY(!k.rules[0].estimatedSpeedup);

    const SourceView *view = p->sourceFor(QStringLiteral("add_kernel"));
    QVERIFY(view);
    QCOMPARE(view->view, QStringLiteral("cuda,sass"));
    QCOMPARE(view->lines.size(), 7);
    QCOMPARE(view->lines[0].line, 25);   // the tl.store line waits on both loads
    QVERIFY(view->lines[0].source.startsWith(QStringLiteral("tl.store(")));
    const StallCounts stalls = view->stallTotals();
    QCOMPARE(stalls.at(0).first, QStringLiteral("long_sb"));
    QCOMPARE(stalls.at(0).second, 3930.0);
    QCOMPARE(view->topInstructions.at(0).sass, QStringLiteral("FADD R12, R12, R16"));
    QCOMPARE(view->topInstructions.at(0).line, 25);
}

void TestTaskResults::profileWithoutCounters()
{
    Expected<ProfileResult> p = parseProfileResult(json(kProtocolProfileUnavailable));
    QVERIFY2(p, qPrintable(p ? QString() : p.error().toString()));
    QVERIFY(!p->ok());
    QCOMPARE(p->status, QStringLiteral("counters_unavailable"));
    QVERIFY(p->message.contains(QStringLiteral("ERR_NVGPUCTRPERM")));
    QVERIFY(p->profiled.isEmpty());
}

void TestTaskResults::malformedResultsNameTheField_data()
{
    QTest::addColumn<QString>("method");
    QTest::addColumn<QString>("path");          // a JSON pointer-ish edit: what to break
    QTest::addColumn<QJsonValue>("replacement");
    QTest::addColumn<QString>("expected");
    QTest::newRow("grid not an array") << "run_task" << "kernels/0/grid" << QJsonValue(QStringLiteral("5,1,1"))
                                       << "/abs/task.py: malformed run_task result: kernels[0].grid: expected an array, got a string (kernel add_kernel at /abs/task.py:19)";
    QTest::newRow("grid of 2") << "run_task" << "kernels/0/grid" << QJsonValue(QJsonArray{5, 1})
                               << "kernels[0].grid: expected 3 dimensions, got 2";
    QTest::newRow("no kernels") << "run_task" << "kernels" << QJsonValue(QJsonValue::Undefined)
                                << "kernels: missing (expected an array)";
    QTest::newRow("spec of another kernel") << "run_task" << "kernels/0/spec/kernel" << QJsonValue(QStringLiteral("mul_kernel"))
                                            << "kernels[0].spec.kernel: names \"mul_kernel\", not the captured kernel";
    QTest::newRow("unknown verdict") << "verify" << "verdict" << QJsonValue(QStringLiteral("maybe"))
                                     << "verdict: expected \"pass\" or \"fail\", got \"maybe\"";
    QTest::newRow("pass with failing reason") << "verify" << "verdict" << QJsonValue(QStringLiteral("pass"))
                                              << "verdict: \"pass\" although 1 reason(s) have severity \"fail\"";
    QTest::newRow("reason without message") << "verify" << "reasons/0/message" << QJsonValue(QJsonValue::Undefined)
                                            << "reasons[0].message: missing (expected a string)";
    QTest::newRow("seed as text") << "verify" << "checks/0/seed" << QJsonValue(QStringLiteral("x"))
                                  << "checks[0].seed: expected a number, got a string";
    QTest::newRow("median as text") << "time" << "candidates/triton/median_ms" << QJsonValue(QStringLiteral("fast"))
                                    << "candidates.triton.median_ms: expected a number, got a string";
    QTest::newRow("no candidates") << "time" << "candidates" << QJsonValue(QJsonValue::Undefined)
                                   << "candidates: missing (expected an object)";
    QTest::newRow("bound missing") << "time" << "roofline/per_candidate/triton/bound" << QJsonValue(QJsonValue::Undefined)
                                   << "roofline.per_candidate.triton.bound: missing (expected a string)";
    QTest::newRow("unknown ncu status") << "profile" << "ncu/status" << QJsonValue(QStringLiteral("fine"))
                                        << "ncu.status: unknown status \"fine\"";
    QTest::newRow("no protocol") << "verify" << "protocol" << QJsonValue(QJsonValue::Undefined)
                                 << "protocol: missing (expected a number)";
}

namespace {

QJsonValue replaced(const QJsonValue &node, QStringList path, const QJsonValue &replacement)
{
    if (path.isEmpty())
        return replacement;
    const QString key = path.takeFirst();
    if (node.isArray()) {
        QJsonArray array = node.toArray();
        array[key.toInt()] = replaced(array[key.toInt()], path, replacement);
        return array;
    }
    QJsonObject object = node.toObject();
    const QJsonValue value = replaced(object.value(key), path, replacement);
    if (value.isUndefined())
        object.remove(key);
    else
        object.insert(key, value);
    return object;
}

template <typename T>
ReadError errorOf(const Expected<T> &parsed)
{
    return parsed ? ReadError{QString(), 0, 0, QStringLiteral("parsed without an error")} : parsed.error();
}

} // namespace

void TestTaskResults::malformedResultsNameTheField()
{
    QFETCH(QString, method);
    QFETCH(QString, path);
    QFETCH(QJsonValue, replacement);
    QFETCH(QString, expected);
    const QJsonObject valid = method == QLatin1String("run_task") ? json(kProtocolRunTask)
                            : method == QLatin1String("verify")   ? json(kProtocolVerify)
                            : method == QLatin1String("time")     ? json(kProtocolTime)
                                                                  : capturedResult(QStringLiteral("profile-vector_add"));
    const QJsonObject broken = replaced(valid, path.split(QLatin1Char('/')), replacement).toObject();
    ReadError error;
    if (method == QLatin1String("run_task"))
        error = errorOf(parseTaskRun(broken));
    else if (method == QLatin1String("verify"))
        error = errorOf(parseVerdict(broken));
    else if (method == QLatin1String("time"))
        error = errorOf(parseTiming(broken));
    else
        error = errorOf(parseProfileResult(broken));
    QVERIFY2(error.toString().contains(expected), qPrintable(error.toString()));
    QVERIFY(!error.file.isEmpty());   // the task file the result belongs to
}

QTEST_GUILESS_MAIN(TestTaskResults)
#include "tst_task_results.moc"

#pragma once
// Loads a compile (compile.json or a CompileResult from the agent) off the UI thread: every
// stage listing, the location map, then the pass-dump op index. Each load gets an id; results of
// a load that a newer one replaced are dropped.
#include "compile/LoadedCompile.h"
#include "jobs/JobTracker.h"
#include "models/PassOpIndex.h"

#include <QObject>
#include <functional>
#include <memory>

namespace strata {

class CompileLoader : public QObject {
    Q_OBJECT
public:
    explicit CompileLoader(QObject *parent = nullptr);

    // `stages`: the backend's pipeline (plugin stage list or defaultNvidiaStages()).
    quint64 loadFile(const QString &compileJsonPath, const QVector<StageDescriptor> &stages);
    // The pipeline chosen once compile.json is read (by its target's backend). Called off the UI
    // thread: it must only read data that does not change (a plugin's stage list).
    using StagesFor = std::function<QVector<StageDescriptor>(const CompileResult &)>;
    quint64 loadFile(const QString &compileJsonPath, StagesFor stagesFor);
    quint64 loadResult(const CompileResult &result, const QVector<StageDescriptor> &stages);
    quint64 currentJob() const { return m_loads.currentJobId(); }
    void waitForIdle();  // tests and shutdown

signals:
    void loaded(quint64 job, std::shared_ptr<const strata::LoadedCompile> compile);
    void failed(quint64 job, const strata::ReadError &error);
    // The pass-dump index arrives later than the stages (it reads every dump).
    void passIndexReady(quint64 job, std::shared_ptr<const strata::PassOpIndex> index);

private:
    void deliver(quint64 job, Expected<LoadedCompile> compile);
    void buildPassIndex(quint64 job, const LoadedCompile &compile);

    JobTracker m_loads{this};
    JobTracker m_passIndexes{this};
};

// The NVIDIA pipeline, used when no backend plugin answered.
QVector<StageDescriptor> defaultNvidiaStages();

} // namespace strata

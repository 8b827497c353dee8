#include "NvidiaStages.h"
#include "models/CompileLoader.h"


namespace strata {

CompileLoader::CompileLoader(QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<strata::ReadError>();
    qRegisterMetaType<std::shared_ptr<const strata::LoadedCompile>>();
    qRegisterMetaType<std::shared_ptr<const strata::PassOpIndex>>();
}

quint64 CompileLoader::loadFile(const QString &compileJsonPath, const QVector<StageDescriptor> &stages)
{
    return loadFile(compileJsonPath, [stages](const CompileResult &) { return stages; });
}

quint64 CompileLoader::loadFile(const QString &compileJsonPath, StagesFor stagesFor)
{
    auto job = std::make_shared<quint64>(0);
    *job = m_loads.start(
        [compileJsonPath, stagesFor](const JobTracker::IsCancelled &) -> Expected<LoadedCompile> {
            Expected<CompileResult> result = readCompileResultFile(compileJsonPath);
            if (!result)
                return result.error();
            return loadCompile(*result, stagesFor(*result));
        },
        [this, job](Expected<LoadedCompile> compile) { deliver(*job, std::move(compile)); });
    return *job;
}

quint64 CompileLoader::loadResult(const CompileResult &result, const QVector<StageDescriptor> &stages)
{
    auto job = std::make_shared<quint64>(0);
    *job = m_loads.start(
        [result, stages](const JobTracker::IsCancelled &) { return loadCompile(result, stages); },
        [this, job](Expected<LoadedCompile> compile) { deliver(*job, std::move(compile)); });
    return *job;
}

void CompileLoader::deliver(quint64 job, Expected<LoadedCompile> compile)
{
    if (!compile) {
        emit failed(job, compile.error());
        return;
    }
    auto shared = std::make_shared<const LoadedCompile>(std::move(*compile));
    emit loaded(job, shared);
    buildPassIndex(job, *shared);
}

void CompileLoader::buildPassIndex(quint64 job, const LoadedCompile &compile)
{
    QVector<PassDumpRef> passes = compile.result.passDumps;
    std::stable_sort(passes.begin(), passes.end(),
                     [](const PassDumpRef &a, const PassDumpRef &b) { return a.index < b.index; });
    const QString kernelFile = compile.result.sourcePath;
    m_passIndexes.start(
        [passes, kernelFile](const JobTracker::IsCancelled &) {
            return std::make_shared<const PassOpIndex>(
                PassOpIndex::build(passes, StageFormat::MlirText, kernelFile));
        },
        [this, job](std::shared_ptr<const PassOpIndex> index) {
            if (job == m_loads.currentJobId())  // a newer compile replaced this one
                emit passIndexReady(job, index);
        });
}

void CompileLoader::waitForIdle()
{
    m_loads.waitForIdle();
    m_passIndexes.waitForIdle();
}

QVector<StageDescriptor> defaultNvidiaStages()
{
    return nvidiaStages();
}

} // namespace strata

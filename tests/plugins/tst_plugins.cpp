// The backend plugin registry: loads the real NVIDIA plugin, reports broken files without
// failing, refuses plugins for another interface.
#include "host/PluginRegistry.h"

#include <QFile>
#include <QTemporaryDir>
#include <QJsonObject>
#include <QtTest>

using namespace strata;

class TestPlugins : public QObject {
    Q_OBJECT

private slots:
    void init();
    void loadsNvidiaFromEnvironmentDir();
    void nvidiaDeclaresItsPipeline();
    void lookupByTarget();
    void brokenFilesAreReportedNotFatal();
    void missingFolderIsAnError();

private:
    void copyInto(const QString &file, const QString &name);
    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestPlugins::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    copyInto(QStringLiteral(STRATA_NVIDIA_PLUGIN), QStringLiteral("libstrata_nvidia.so"));
}

void TestPlugins::copyInto(const QString &file, const QString &name)
{
    QVERIFY2(QFile::copy(file, m_dir->filePath(name)), qPrintable(file));
}

void TestPlugins::loadsNvidiaFromEnvironmentDir()
{
    qputenv("STRATA_PLUGIN_DIR", m_dir->path().toUtf8());
    QCOMPARE(PluginRegistry::defaultPluginDir(), m_dir->path());
    PluginRegistry registry;
    QCOMPARE(registry.loadDefault(), 1);
    QVERIFY2(registry.errors().isEmpty(), qPrintable(registry.errors().value(0).toString()));
    QVERIFY(registry.backend(QStringLiteral("nvidia")));
    const QVector<PluginInfo> plugins = registry.plugins();
    QCOMPARE(plugins.size(), 1);
    QCOMPARE(plugins[0].name, QStringLiteral("nvidia"));
    QCOMPARE(plugins[0].version, QStringLiteral("0.1.0"));
    QCOMPARE(plugins[0].compatVersion, QStringLiteral("0.1.0"));
    QVERIFY(plugins[0].file.endsWith(QStringLiteral("libstrata_nvidia.so")));
    qunsetenv("STRATA_PLUGIN_DIR");
}

void TestPlugins::nvidiaDeclaresItsPipeline()
{
    PluginRegistry registry;
    QCOMPARE(registry.loadFromDirectory(m_dir->path()), 1);
    BackendPlugin *nvidia = registry.backend(QStringLiteral("nvidia"));
    QVERIFY(nvidia);
    QCOMPARE(nvidia->targets(), (QStringList{"sm_80", "sm_90", "sm_100"}));
    QCOMPARE(nvidia->defaultTarget(), QStringLiteral("sm_90"));
    QStringList ids;
    for (const StageDescriptor &stage : nvidia->stages())
        ids.append(stage.id);
    QCOMPARE(ids, (QStringList{"source", "ttir", "ttgir", "llir", "ptx", "sass"}));
    const QVector<StageDescriptor> stages = nvidia->stages();
    QCOMPARE(stages[0].format, StageFormat::PythonSource);
    QCOMPARE(stages[2].format, StageFormat::MlirText);
    QCOMPARE(stages[3].format, StageFormat::LlvmIr);
    QCOMPARE(stages[4].format, StageFormat::Ptx);
    QCOMPARE(stages[5].format, StageFormat::Sass);
    for (int i = 0; i < stages.size(); ++i)
        QCOMPARE(stages[i].order, i);
    QCOMPARE(nvidia->passDumpFormat(), StageFormat::MlirText);
    QCOMPARE(nvidia->defaultOptions().value(QStringLiteral("num_warps")).toInt(), 4);
    QCOMPARE(nvidia->defaultOptions().value(QStringLiteral("num_stages")).toInt(), 3);
    // A host pool restricts each agent to one GPU with it, indices as nvidia-smi lists them.
    const DeviceMask mask = nvidia->deviceMask();
    QCOMPARE(mask.variable, QStringLiteral("CUDA_VISIBLE_DEVICES"));
    QCOMPARE(mask.orderVariables.value(0).first, QStringLiteral("CUDA_DEVICE_ORDER"));
    QCOMPARE(mask.orderVariables.value(0).second, QStringLiteral("PCI_BUS_ID"));
}

void TestPlugins::lookupByTarget()
{
    PluginRegistry registry;
    registry.loadFromDirectory(m_dir->path());
    QCOMPARE(registry.backendForTarget(QStringLiteral("sm_100")), registry.backend(QStringLiteral("nvidia")));
    // Triton's GPUTarget as tritonparse records it: the CUDA backend's arch is a number.
    const auto triton = [](const char *backend, const QJsonValue &arch) {
        return QJsonObject{{QStringLiteral("backend"), QLatin1String(backend)}, {QStringLiteral("arch"), arch},
                           {QStringLiteral("warp_size"), 32}};
    };
    QCOMPARE(registry.targetFromTriton(triton("cuda", 90)), QStringLiteral("sm_90"));
    QCOMPARE(registry.targetFromTriton(triton("cuda", QStringLiteral("90"))), QString());
    QCOMPARE(registry.targetFromTriton(triton("hip", QStringLiteral("gfx942"))), QString());
    QVERIFY(!registry.backendForTarget(QStringLiteral("gfx942")));
    QVERIFY(!registry.backend(QStringLiteral("ascend")));
}

void TestPlugins::brokenFilesAreReportedNotFatal()
{
    QFile broken(m_dir->filePath(QStringLiteral("libbroken.so")));
    QVERIFY(broken.open(QIODevice::WriteOnly));
    broken.write("this is a text file, not a shared library\n");
    broken.close();
    copyInto(QStringLiteral(STRATA_WRONG_IID_PLUGIN), QStringLiteral("libwrong_iid.so"));
    QFile notes(m_dir->filePath(QStringLiteral("README.txt")));   // not a library name: ignored
    QVERIFY(notes.open(QIODevice::WriteOnly));

    PluginRegistry registry;
    QCOMPARE(registry.loadFromDirectory(m_dir->path()), 1);
    QVERIFY(registry.backend(QStringLiteral("nvidia")));
    QCOMPARE(registry.errors().size(), 2);
    QString brokenError, wrongIidError;
    for (const PluginLoadError &error : registry.errors()) {
        if (error.file.endsWith(QStringLiteral("libbroken.so")))
            brokenError = error.message;
        if (error.file.endsWith(QStringLiteral("libwrong_iid.so")))
            wrongIidError = error.message;
    }
    QVERIFY2(brokenError.startsWith(QStringLiteral("not a Qt plugin")), qPrintable(brokenError));
    QVERIFY2(wrongIidError.contains(QStringLiteral("dev.example.SomethingElse/1.0")), qPrintable(wrongIidError));
    QVERIFY2(wrongIidError.contains(QStringLiteral("not a Strata backend")), qPrintable(wrongIidError));
}

void TestPlugins::missingFolderIsAnError()
{
    PluginRegistry registry;
    QCOMPARE(registry.loadFromDirectory(m_dir->filePath(QStringLiteral("nope"))), 0);
    QCOMPARE(registry.errors().size(), 1);
    QVERIFY(registry.errors()[0].message.contains(QStringLiteral("does not exist")));
    QVERIFY(registry.backends().isEmpty());
}

QTEST_GUILESS_MAIN(TestPlugins)
#include "tst_plugins.moc"

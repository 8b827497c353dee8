// LLM endpoints in the app's settings: stored as config JSON without any key, read back, keys
// from the environment or the system keyring (when this machine has one), and never written to
// the settings file; the dialog edits them and the Run dock offers them.
#include "models/LlmSettings.h"
#include "views/LlmSettingsDialog.h"

#include <QComboBox>
#include <QFile>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using namespace strata;

namespace {

const char kSecret[] = "sk-test-0123456789abcdef";

LlmEndpoint localVllm()
{
    LlmEndpoint endpoint;
    endpoint.name = QStringLiteral("local-vllm");
    endpoint.config = rewrite::llm::defaultConfig(rewrite::llm::ApiKind::OpenAi);
    endpoint.config.baseUrl = QStringLiteral("http://127.0.0.1:8000/v1");
    endpoint.config.model = QStringLiteral("qwen2.5-coder");
    endpoint.config.apiKeyEnv = QStringLiteral("STRATA_TEST_LLM_KEY");
    return endpoint;
}

QByteArray fileText(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestLlmSettings : public QObject {
    Q_OBJECT
private slots:
    void init() { m_dir = std::make_unique<QTemporaryDir>(); qunsetenv("STRATA_TEST_LLM_KEY"); }
    void endpointsRoundTripWithoutKeys();
    void badEndpointsAreRefused();
    void keyComesFromTheEnvironmentWhenNotInTheKeyring();
    void keyringNeverLeavesTheKeyInTheFile();
    void dialogEditsEndpoints();

private:
    QString iniPath() const { return m_dir->filePath(QStringLiteral("strata.ini")); }
    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestLlmSettings::endpointsRoundTripWithoutKeys()
{
    {
        QSettings ini(iniPath(), QSettings::IniFormat);
        LlmSettings settings(&ini);
        QVERIFY(settings.setEndpoint(localVllm()).isEmpty());
        LlmEndpoint claude;
        claude.name = QStringLiteral("claude");
        claude.config = rewrite::llm::defaultConfig(rewrite::llm::ApiKind::Anthropic);
        claude.config.model = QStringLiteral("claude-sonnet");
        QVERIFY(settings.setEndpoint(claude).isEmpty());
    }
    QSettings ini(iniPath(), QSettings::IniFormat);
    LlmSettings settings(&ini);
    const QVector<LlmEndpoint> endpoints = settings.endpoints();
    QCOMPARE(endpoints.size(), 2);
    QCOMPARE(endpoints[0].name, QStringLiteral("local-vllm"));
    QCOMPARE(endpoints[0].config.baseUrl, QStringLiteral("http://127.0.0.1:8000/v1"));
    QCOMPARE(endpoints[0].config.apiKeyEnv, QStringLiteral("STRATA_TEST_LLM_KEY"));
    QCOMPARE(endpoints[1].config.kind, rewrite::llm::ApiKind::Anthropic);
    // Replacing keeps one entry; removing drops it.
    LlmEndpoint changed = localVllm();
    changed.config.model = QStringLiteral("llama");
    QVERIFY(settings.setEndpoint(changed).isEmpty());
    QCOMPARE(settings.endpoints().size(), 2);
    QCOMPARE(settings.endpoints()[0].config.model, QStringLiteral("llama"));
    settings.removeEndpoint(QStringLiteral("claude"));
    QCOMPARE(settings.endpoints().size(), 1);
}

void TestLlmSettings::badEndpointsAreRefused()
{
    QSettings ini(iniPath(), QSettings::IniFormat);
    LlmSettings settings(&ini);
    LlmEndpoint nameless = localVllm();
    nameless.name = QStringLiteral(" ");
    QVERIFY(!settings.setEndpoint(nameless).isEmpty());
    LlmEndpoint noModel = localVllm();
    noModel.config.model.clear();
    QVERIFY(settings.setEndpoint(noModel).contains(QLatin1String("local-vllm")));
    QVERIFY(settings.endpoints().isEmpty());
    QVERIFY(!settings.resolved(QStringLiteral("nope")));
}

void TestLlmSettings::keyComesFromTheEnvironmentWhenNotInTheKeyring()
{
    QSettings ini(iniPath(), QSettings::IniFormat);
    LlmSettings settings(&ini);
    QVERIFY(settings.setEndpoint(localVllm()).isEmpty());
    Expected<rewrite::llm::ProviderConfig> missing = settings.resolved(QStringLiteral("local-vllm"));
    if (missing && missing->secrets)
        QSKIP("this machine's keyring already holds a key for the test endpoint");
    QVERIFY(!missing);
    QVERIFY2(missing.error().message.contains(QLatin1String("STRATA_TEST_LLM_KEY")), qPrintable(missing.error().message));
    QVERIFY(!missing.error().message.contains(QLatin1String(kSecret)));
    qputenv("STRATA_TEST_LLM_KEY", kSecret);
    Expected<rewrite::llm::ProviderConfig> config = settings.resolved(QStringLiteral("local-vllm"));
    QVERIFY2(config, qPrintable(config ? QString() : config.error().toString()));
    QCOMPARE(*rewrite::llm::resolveApiKey(*config), QString::fromLatin1(kSecret));
}

void TestLlmSettings::keyringNeverLeavesTheKeyInTheFile()
{
    QSettings ini(iniPath(), QSettings::IniFormat);
    LlmSettings settings(&ini);
    QVERIFY(settings.setEndpoint(localVllm()).isEmpty());
    const QString stored = settings.storeKey(QStringLiteral("local-vllm"), QString::fromLatin1(kSecret));
    ini.sync();
    QVERIFY(!fileText(iniPath()).contains(kSecret));
    if (!stored.isEmpty()) {
        // No keyring here (CI has no secret service): the error says what to do instead.
        QVERIFY2(stored.contains(QLatin1String("environment variable")), qPrintable(stored));
        QVERIFY(!stored.contains(QLatin1String(kSecret)));
        return;
    }
    Expected<rewrite::llm::ProviderConfig> config = settings.resolved(QStringLiteral("local-vllm"));
    QVERIFY(config && config->secrets);
    QCOMPARE(*rewrite::llm::resolveApiKey(*config), QString::fromLatin1(kSecret));
}

void TestLlmSettings::dialogEditsEndpoints()
{
    QSettings ini(iniPath(), QSettings::IniFormat);
    LlmSettings settings(&ini);
    LlmSettingsDialog dialog(&settings);
    dialog.show();
    dialog.nameField()->setText(QStringLiteral("local-vllm"));
    dialog.kindBox()->setCurrentIndex(dialog.kindBox()->findData(QStringLiteral("openai")));
    dialog.baseUrlField()->setText(QStringLiteral("http://127.0.0.1:8000/v1"));
    dialog.modelField()->setText(QStringLiteral("qwen2.5-coder"));
    dialog.keyEnvField()->setText(QStringLiteral("STRATA_TEST_LLM_KEY"));
    QTest::mouseClick(dialog.saveButton(), Qt::LeftButton);
    QCOMPARE(settings.endpoints().size(), 1);
    QCOMPARE(settings.endpoints()[0].config.model, QStringLiteral("qwen2.5-coder"));
    QCOMPARE(dialog.endpointList()->count(), 1);
    // A bad entry is refused with a reason, and nothing changes.
    dialog.modelField()->clear();
    QTest::mouseClick(dialog.saveButton(), Qt::LeftButton);
    QVERIFY(dialog.statusText().contains(QLatin1String("model")));
    QCOMPARE(settings.endpoints()[0].config.model, QStringLiteral("qwen2.5-coder"));
    QListWidget *list = dialog.endpointList();
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(list->item(0)).center());
    QCOMPARE(dialog.modelField()->text(), QStringLiteral("qwen2.5-coder"));  // clicking loads it
    QTest::mouseClick(dialog.removeButton(), Qt::LeftButton);
    QVERIFY(settings.endpoints().isEmpty());
    QCOMPARE(dialog.endpointList()->count(), 0);
}

QTEST_MAIN(TestLlmSettings)
#include "tst_llm_settings.moc"

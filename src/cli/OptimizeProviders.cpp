// The rewrite providers strata-cli's optimize and bench use, in the order they are asked:
// hand-written proposals (--proposals), the built-in recipes, then an LLM (--llm) or a person
// (--manual: the prompt goes to a file, the loop waits for the answer file).
#include "cli/OptimizeCommand.h"

#include "optimize/ProviderSet.h"
#include "rewrite/llm/LlmProvider.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

#include <optional>

namespace strata::cli {

namespace {

// The LLM configuration named by --llm, checked up front (file, JSON, fields, and that its key
// can be found) so a bad setup fails before any task starts.
std::optional<rewrite::llm::ProviderConfig> readLlmConfig(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: cannot read the LLM configuration (%2)").arg(path, file.errorString());
        return std::nullopt;
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (!document.isObject()) {
        *error = QStringLiteral("%1: offset %2: %3").arg(path).arg(parseError.offset)
                     .arg(parseError.error == QJsonParseError::NoError ? QStringLiteral("expected a JSON object") : parseError.errorString());
        return std::nullopt;
    }
    Expected<rewrite::llm::ProviderConfig> config = rewrite::llm::providerConfigFromJson(document.object(), path);
    if (!config) {
        *error = config.error().toString();
        return std::nullopt;
    }
    if (Expected<QString> key = rewrite::llm::resolveApiKey(*config); !key) {
        *error = QStringLiteral("%1: %2").arg(path, key.error().toString());
        return std::nullopt;
    }
    return *config;
}

} // namespace

optimize::ProviderFactory makeProviders(const ProviderChoice &choice, QString *error)
{
    const QString folder = choice.proposalsDir.isEmpty() ? QString() : QFileInfo(choice.proposalsDir).absoluteFilePath();
    if (!folder.isEmpty() && !QFileInfo(folder).isDir()) {
        *error = QStringLiteral("%1: no such proposals folder").arg(choice.proposalsDir);
        return {};
    }
    std::optional<rewrite::llm::ProviderConfig> llmConfig;
    if (!choice.llmConfigPath.isEmpty()) {
        llmConfig = readLlmConfig(choice.llmConfigPath, error);
        if (!llmConfig)
            return {};
    }
    optimize::ProviderSet set;
    set.proposalsDir = folder;
    set.recipes = choice.recipes;
    set.plugins = choice.plugins;
    set.llm = llmConfig;
    set.saveAnswersDir = choice.saveAnswersDir;
    if (choice.manual)
        set.manualRoot = choice.manualRoot;
    set.cancel = choice.cancel;
    return optimize::providerFactory(set);
}

} // namespace strata::cli

#include "app/Language.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QSettings>
#include <QTranslator>

namespace strata {

namespace {
const QString kLanguageKey = QStringLiteral("language");
} // namespace

QStringList languageCodes()
{
    return {QString(), QStringLiteral("en"), QStringLiteral("zh_CN")};
}

QString languageName(const QString &code)
{
    if (code.isEmpty())
        return QCoreApplication::translate("strata::Language", "System default");
    if (code == QLatin1String("en"))
        return QStringLiteral("English");
    if (code == QLatin1String("zh_CN"))
        return QStringLiteral("中文（简体）");  // each language in its own name
    return code;
}

QString languagePreference()
{
    return QSettings().value(kLanguageKey).toString();
}

void setLanguagePreference(const QString &code)
{
    QSettings().setValue(kLanguageKey, code);
}

QLocale chosenLocale(const QString &override)
{
    const QString code = override.isEmpty() ? languagePreference() : override;
    return code.isEmpty() ? QLocale() : QLocale(code);
}

bool installTranslations(QCoreApplication &app, const QLocale &locale, const QString &catalogues)
{
    auto *own = new QTranslator(&app);
    const bool found = own->load(locale, QStringLiteral("strata"), QStringLiteral("_"), catalogues);
    if (found)
        app.installTranslator(own);
    else
        delete own;
    auto *qt = new QTranslator(&app);
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"), QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        app.installTranslator(qt);
    else
        delete qt;
    return found;
}

} // namespace strata

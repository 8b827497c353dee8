#pragma once
// The app's language: the system locale unless the user chose one (Settings > Language, kept in
// QSettings "language"; `strata --lang CODE` for one run). The catalogues are compiled into the
// app (:/i18n/strata_<code>.qm); a change applies when the app starts next, since the windows set
// their texts when they are built.
#include <QLocale>
#include <QString>
#include <QStringList>

class QCoreApplication;

namespace strata {

QStringList languageCodes();                    // "", "en", "zh_CN" ("": follow the system)
QString languageName(const QString &code);      // "System default", "English", "中文（简体）"
QString languagePreference();                   // the stored choice, "" when none
void setLanguagePreference(const QString &code);
// The locale to use: `override` (e.g. --lang) when set, else the preference, else the system's.
QLocale chosenLocale(const QString &override = {});
// Installs Strata's and Qt's catalogues for `locale`; true when Strata's own one was found
// (English needs none and returns false). `catalogues`: where strata_<code>.qm lives (the app's
// embedded resources by default; tests pass the build folder).
bool installTranslations(QCoreApplication &app, const QLocale &locale, const QString &catalogues = QStringLiteral(":/i18n"));

} // namespace strata

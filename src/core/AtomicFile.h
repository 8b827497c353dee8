#pragma once
// Writes a whole file or nothing (QSaveFile: a temporary file renamed over the target), so a
// reader never sees half of it and a failed write leaves what was there. Every file Strata
// writes for a person or another process goes through here.
#include <QByteArray>
#include <QString>

namespace strata {

// Empty on success, else the system's reason (callers add the file and what it was).
QString writeFileAtomically(const QString &path, const QByteArray &bytes);

} // namespace strata

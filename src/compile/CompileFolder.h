#pragma once
// A compile folder is portable: compile.json names every file relative to the folder holding it
// (work_dir "."), so a copied, moved or unpacked folder reads its own files. Only paths outside
// the folder stay absolute (source_path, the kernel as the compiler saw it, is not a file Strata
// reads). Folders written before that name absolute paths; ArtifactLocator reads them from where
// the folder is now and says so.
#include "compile/CompileResult.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

namespace strata {

// Resolves the paths of one compile.json against the folder it was read from.
class ArtifactLocator {
public:
    // `folder`: where compile.json is now (empty: leave paths as they are). `recordedFolder`: its
    // "work_dir" as written: "." since paths are relative, an absolute path before.
    ArtifactLocator(const QString &folder, const QString &recordedFolder);

    // The file to read for a path as compile.json records it.
    QString locate(const QString &recordedPath);
    // Notes a file whose size is not the one compile.json records (truncated, emptied, replaced).
    void checkSize(const QString &what, const QString &path, qint64 recordedSize);
    QString folder() const { return m_folder; }
    // One sentence per kind of surprise, for the user: empty when every file was where it belongs.
    QStringList warnings() const;

private:
    QString underRecordedFolder(const QString &absolutePath) const;
    QString sameNameHere(const QString &absolutePath) const;

    QString m_folder;           // cleaned, absolute
    QString m_recordedFolder;   // cleaned; equal to m_folder when the folder has not moved
    bool m_moved = false;
    int m_rebased = 0;                 // absolute paths under the old folder, read from this one
    QStringList m_fromOriginal;        // missing here, read from the old folder that still has them
    QStringList m_byName;              // recorded path gone, the same name read from this folder
    QStringList m_sizeMismatches;      // "what (path): N bytes, compile.json records M"
};

// `result` as compile.json stores it in `folder`: paths inside the folder relative to it,
// work_dir ".". Paths outside the folder stay absolute.
QJsonObject toPortableJson(const CompileResult &result, const QString &folder);
// Writes `folder`/compile.json atomically. Empty on success, else why not.
QString writeCompileResultFile(const CompileResult &result, const QString &folder);

} // namespace strata

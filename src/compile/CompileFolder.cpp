#include "compile/CompileFolder.h"

#include "core/AtomicFile.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

namespace strata {

namespace {

// A few names are enough to act on; the rest are counted.
QString firstFew(const QStringList &paths)
{
    constexpr int kShown = 3;
    QStringList shown = paths.mid(0, kShown);
    if (paths.size() > kShown)
        shown << QStringLiteral("and %1 more").arg(paths.size() - kShown);
    return shown.join(QStringLiteral(", "));
}

// Two spellings of one folder (a symlink, a trailing "/.") are the same folder.
bool sameFolder(const QString &a, const QString &b)
{
    if (a == b)
        return true;
    const QString canonicalA = QFileInfo(a).canonicalFilePath();
    return !canonicalA.isEmpty() && canonicalA == QFileInfo(b).canonicalFilePath();
}

// `path` relative to `folder` when it lies inside it (checked on the real paths, so the agent's
// resolved work dir and a user's symlinked --out agree), else unchanged.
QString relativeInside(const QString &path, const QString &folder)
{
    if (path.isEmpty() || !QDir::isAbsolutePath(path))
        return path;
    const QString realFolder = QFileInfo(folder).canonicalFilePath();
    const QString realPath = QFileInfo(path).canonicalFilePath();
    const QString cleanFolder = QDir::cleanPath(QFileInfo(folder).absoluteFilePath());
    for (const auto &[base, file] : {std::pair{realFolder, realPath}, std::pair{cleanFolder, QDir::cleanPath(path)}}) {
        if (!base.isEmpty() && !file.isEmpty() && file.startsWith(base + u'/'))
            return file.mid(base.size() + 1);
    }
    return path;
}

QJsonObject relativePathIn(QJsonObject ref, const QString &folder)
{
    const QJsonValue path = ref.value(QStringLiteral("path"));
    if (path.isString())
        ref.insert(QStringLiteral("path"), relativeInside(path.toString(), folder));
    return ref;
}

} // namespace

ArtifactLocator::ArtifactLocator(const QString &folder, const QString &recordedFolder)
{
    if (folder.isEmpty())
        return;
    m_folder = QDir::cleanPath(QFileInfo(folder).absoluteFilePath());
    m_recordedFolder = m_folder;
    if (QDir::isAbsolutePath(recordedFolder) && !sameFolder(QDir::cleanPath(recordedFolder), m_folder)) {
        m_recordedFolder = QDir::cleanPath(recordedFolder);
        m_moved = true;
    }
}

QString ArtifactLocator::underRecordedFolder(const QString &absolutePath) const
{
    const QString path = QDir::cleanPath(absolutePath);
    if (!m_moved || !path.startsWith(m_recordedFolder + u'/'))
        return {};
    return m_folder + path.mid(m_recordedFolder.size());
}

QString ArtifactLocator::sameNameHere(const QString &absolutePath) const
{
    const QFileInfo info(absolutePath);
    // passes/NNN-x.mlir keeps its subfolder; the stage files sit at the top.
    for (const QString &candidate : {m_folder + u'/' + info.dir().dirName() + u'/' + info.fileName(),
                                     m_folder + u'/' + info.fileName()}) {
        if (QFileInfo(candidate).isFile())
            return candidate;
    }
    return {};
}

QString ArtifactLocator::locate(const QString &recordedPath)
{
    if (recordedPath.isEmpty() || m_folder.isEmpty())
        return recordedPath;
    if (!QDir::isAbsolutePath(recordedPath))
        return QDir::cleanPath(m_folder + u'/' + recordedPath);
    // An old compile.json of a copied or moved folder: its own copy wins over the original,
    // which may still exist and must not be read silently in its place.
    const QString here = underRecordedFolder(recordedPath);
    if (!here.isEmpty()) {
        if (QFileInfo::exists(here)) {
            ++m_rebased;
            return here;
        }
        if (QFileInfo::exists(recordedPath)) {
            m_fromOriginal << recordedPath;
            return recordedPath;
        }
        return here;   // missing in both: the error names where it should be now
    }
    if (QFileInfo::exists(recordedPath))
        return recordedPath;
    const QString byName = sameNameHere(recordedPath);
    if (byName.isEmpty())
        return recordedPath;
    m_byName << recordedPath;
    return byName;
}

void ArtifactLocator::checkSize(const QString &what, const QString &path, qint64 recordedSize)
{
    const QFileInfo info(path);
    if (m_folder.isEmpty() || !info.isFile() || info.size() == recordedSize)
        return;
    m_sizeMismatches << QStringLiteral("%1 (%2): %3 bytes, compile.json records %4")
                            .arg(what, path).arg(info.size()).arg(recordedSize);
}

QStringList ArtifactLocator::warnings() const
{
    QStringList warnings;
    if (m_rebased > 0)
        warnings << QStringLiteral("compile.json records its folder as %1 (absolute paths, written before compile "
                                   "folders were portable); read %2 of its files from %3, where it is now")
                        .arg(m_recordedFolder).arg(m_rebased).arg(m_folder);
    if (!m_fromOriginal.isEmpty())
        warnings << QStringLiteral("%1 file(s) missing from %2 were read from the original folder %3: %4")
                        .arg(m_fromOriginal.size()).arg(m_folder, m_recordedFolder, firstFew(m_fromOriginal));
    if (!m_byName.isEmpty())
        warnings << QStringLiteral("%1 file(s) are no longer where compile.json says; read the file of the same "
                                   "name in %2 instead: %3")
                        .arg(m_byName.size()).arg(m_folder, firstFew(m_byName));
    if (!m_sizeMismatches.isEmpty())
        warnings << QStringLiteral("%1 file(s) changed since the compile (size differs from compile.json): %2")
                        .arg(m_sizeMismatches.size()).arg(firstFew(m_sizeMismatches));
    return warnings;
}

QJsonObject toPortableJson(const CompileResult &result, const QString &folder)
{
    QJsonObject json = toJson(result);
    QJsonObject artifacts = json.value(QStringLiteral("artifacts")).toObject();
    for (auto it = artifacts.begin(); it != artifacts.end(); ++it)
        it.value() = relativePathIn(it.value().toObject(), folder);
    QJsonArray dumps = json.value(QStringLiteral("pass_dumps")).toArray();
    for (qsizetype i = 0; i < dumps.size(); ++i)
        dumps[i] = relativePathIn(dumps[i].toObject(), folder);
    json.insert(QStringLiteral("artifacts"), artifacts);
    json.insert(QStringLiteral("pass_dumps"), dumps);
    json.insert(QStringLiteral("work_dir"), QStringLiteral("."));
    return json;
}

QString writeCompileResultFile(const CompileResult &result, const QString &folder)
{
    const QByteArray bytes = QJsonDocument(toPortableJson(result, folder)).toJson(QJsonDocument::Indented);
    return writeFileAtomically(QDir(folder).filePath(QStringLiteral("compile.json")), bytes);
}

} // namespace strata

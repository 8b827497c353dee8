#pragma once
// Internal: MLIR location attributes. Parses `loc(...)` text into a node table, binds `#locN`
// aliases (which Triton prints after their uses, at the bottom of the module), and resolves each
// node to a LocationChain once the whole text has been read.
#include "core/Expected.h"
#include "core/SourceLocation.h"

#include <QHash>
#include <QString>
#include <QStringView>
#include <QVector>
#include <optional>

namespace strata::ir::detail {

struct LocNode {
    enum Kind : quint8 { Unknown, File, Name, CallSite, Fused, Ref };
    Kind kind = Unknown;
    QString text;          // File: file name; Name: the name; Ref: alias name without '#'
    int line = 0, column = 0;  // File
    int first = -1;        // Name: child; CallSite: callee; Ref: target (after resolve)
    int second = -1;       // CallSite: caller
    QVector<int> children; // Fused
    int textLine = -1;     // where a Ref was written (0-based), for errors
    int textColumn = -1;
};

class LocTable {
public:
    struct Parsed {
        int node = -1;
        int end = 0;            // one past the closing ')'
        int errorColumn = -1;   // 0-based, when parsing failed
        QString error;
    };

    // Parses the `loc(...)` starting at `pos` of `line` (0-based `lineIndex`, for later errors).
    Parsed parseLoc(QStringView line, int pos, int lineIndex);

    void defineAlias(const QString &name, int node) { m_aliases.insert(name, node); }
    bool isAlias(const QString &name) const { return m_aliases.contains(name); }

    // Binds references and computes every node's chain. Fails on a reference to an undefined
    // alias or a cycle, naming the line and column of the reference.
    std::optional<ReadError> resolve(const QString &path);

    const LocationChain &chain(int node) const;  // empty for -1
    QString name(int node) const;                // outermost NameLoc name, or empty

private:
    struct Cursor;
    int add(LocNode node);
    int parseItem(Cursor &c, int depth);
    int parseBody(Cursor &c, int depth);
    int parseFileOrName(Cursor &c, int depth);
    QString intern(QString file);
    bool computeChain(int node, int depth, ReadError &error, const QString &path);

    QVector<LocNode> m_nodes;
    QHash<QString, int> m_aliases;
    QHash<QString, QString> m_files;
    QVector<LocationChain> m_chains;
    QVector<quint8> m_state;  // 0 unvisited, 1 in progress, 2 done
};

} // namespace strata::ir::detail

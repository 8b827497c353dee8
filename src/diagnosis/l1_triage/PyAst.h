#pragma once
// Read-only helpers over a Python AST in the agent's JSON form (agent/strata_agent/ast_json.py):
// each node is {"_type": "Call", <fields>, "lineno", "col_offset", "end_lineno", "end_col_offset"}.
// The rules key on node structure; names matter only for Triton's own API (tl.load, tl.dot).
#include "diagnosis/model/Finding.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QSet>
#include <QString>
#include <QVector>

#include <functional>

namespace strata::diagnosis::pyast {

using Node = QJsonObject;

QString typeOf(const Node &node);  // "Call", "Name", ... ; empty for non-nodes
bool isType(const Node &node, const char *type);
Node child(const Node &node, const char *field);      // an object field, or {}
QJsonArray children(const Node &node, const char *field);

// The span of `node` in `file` (columns converted to 1-based).
SourceSpan spanOf(const Node &node, const QString &file);
int lineOf(const Node &node);

// "tl.arange" for Name/Attribute chains; empty for anything else.
QString dottedName(const Node &node);
// True when `call` is a Call of Triton's `function` (tl.load, triton.language.load, or a bare
// `load` imported from triton.language): keyed on the last name component; the prefix must be
// empty or end in "tl"/"language".
bool isTritonCall(const Node &call, const char *function);
// True for `x.method(...)` calls (e.g. `.to(tl.int64)`).
bool isMethodCall(const Node &call, const char *method);

// Positional argument `index`, else keyword `keyword`, else {}.
Node argument(const Node &call, int index, const char *keyword);
Node keyword(const Node &call, const char *name);

// Visits `root` and every node below it (depth first, text order). `ancestors` are the nodes
// enclosing the visited one, outermost first (root included, the node itself not).
using Visitor = std::function<void(const Node &node, const QVector<Node> &ancestors)>;
void walk(const Node &root, const Visitor &visit);

// True when a Triton call of `function` (see isTritonCall) / a node of `type` sits anywhere in `root`.
bool containsCall(const Node &root, const char *function);
bool containsType(const Node &root, const char *type);

// Names read (ctx Load) anywhere in `node`.
QSet<QString> namesRead(const Node &node);
// Names read in `node` except inside tl.load calls: a loaded value (an index read from memory)
// offsets an address but is not its base.
QSet<QString> namesReadOutsideLoads(const Node &node);
// Names bound by an assignment target (Name, Tuple of Names, ...).
QStringList targetNames(const Node &target);
// Names an assignment statement binds (Assign, AugAssign, AnnAssign); empty for other nodes.
QStringList namesAssignedBy(const Node &statement);
// Every name bound anywhere in `root`: by its assignments and by its `for` targets.
QSet<QString> namesAssignedWithin(const Node &root);

// A canonical text of the subtree without spans: equal for structurally equal expressions.
QString canonicalText(const Node &node);

bool isPowerOfTwo(qint64 value);

} // namespace strata::diagnosis::pyast

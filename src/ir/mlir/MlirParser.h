#pragma once
// Internal: the line-oriented reader behind readMlir(). MLIR's printer puts every op on its own
// line; only regions span lines (an op line ending in an unmatched '{', closed by a line that
// starts with '}'). The parser keeps one bracket stack across lines, so a closing line such as
// `}) : (tensor<...>) -> f32 loc(#loc37)` finishes the op that opened the region.
#include "ir/mlir/MlirLexer.h"
#include "ir/mlir/MlirLocations.h"
#include "ir/mlir/MlirReader.h"

#include <optional>

namespace strata::ir::detail {

bool isModuleOpName(const QString &name);  // "module" / "builtin.module"
QChar closerOf(QChar open);                // '(' -> ')', '<' -> '>', ...
bool isOpener(const Token &t);
bool isCloser(const Token &t);

class MlirParser {
public:
    MlirParser(const QString &text, const QString &path);
    Expected<MlirModule> run();

private:
    enum class DictTarget : quint8 { None, Op, Arg };
    struct Open {
        QChar ch;
        DictTarget dict = DictTarget::None;
        int op = -1;       // the op whose text opened it
        int line = 0;
        int column = 0;
    };
    // What one line contributes to one op (or, for a ^bb label, to its region's owner).
    struct Scan {
        int op = -1;
        int base = 0;              // bracket-stack size where this op's own brackets start
        bool label = false;        // a ^bb label line: only block-argument definitions count
        QString blockLabel;
        int locNode = -1;
        int sigStart = -1, arrowBefore = -1, arrowAfter = -1;
        QVector<int> stops;        // positions that end a signature: loc, attributes, region '{'
        int argIndex = -1;         // block argument being read (index into op.blockArgs)
        int argDepth = -1;
        int argTypeStart = -1;
    };

    bool readLine(int index);
    bool readOpLine(int index);
    bool readClosingLine(int index);
    bool readLabelLine(int index);
    bool readAliasLine(int index);
    int regionContinuationOwner() const;
    bool readRegionContinuation(int owner);
    int regionArgumentsOwner() const;
    bool readRegionArguments(int owner);
    void readHeader(int index, QStringView line);
    bool scanTokens(Scan &scan, int from);
    bool handleToken(Scan &scan, int &i);
    bool handleLoc(Scan &scan, int &i);
    void handleValue(Scan &scan, int &i);
    void handleHash(int opIndex, int i);
    bool pushBracket(Scan &scan, int i);
    bool popBracket(Scan &scan, int i);
    void finishArgType(Scan &scan, int end);  // the type ends at `end`; attrs or loc may follow
    void endArg(Scan &scan, int end);         // the argument's definition ends at `end`
    bool endOfLine(Scan &scan);
    void applySignature(const Scan &scan);
    bool finish();
    void bindLayouts();
    bool fail(int line, int column, const QString &message);
    ReadError failure() const;

    QString m_text;
    QString m_path;
    QVector<QStringView> m_lines;
    QStringView m_line;
    int m_lineIndex = 0;
    LineTokens m_tok;
    QVector<Open> m_stack;
    QVector<int> m_opBase;       // per op: stack size when it started
    QVector<int> m_opLocNode;    // per op: its location node, or -1
    QVector<QStringList> m_opHashRefs;  // per op: '#' names and inline attributes it mentions
    QHash<int, int> m_lastChild;  // parent op (-1: top level) -> its latest child op
    QVector<int> m_locDefNodes;  // per MlirModule::locationDefs entry
    struct ArgLoc { int op; int arg; int node; };
    QVector<ArgLoc> m_argLocs;
    LocTable m_locs;
    MlirModule m_module;
    bool m_inResources = false;
    std::optional<ReadError> m_error;
};

} // namespace strata::ir::detail

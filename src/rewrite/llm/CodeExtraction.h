#pragma once
// Reads a model's answer: the new task file from its fenced code, and the title, rationale and
// finding ids from the lines the output contract asks for (see PromptBuilder). Shared by the HTTP
// providers and the manual one, so every answer passes the same checks.
#include "core/Expected.h"

#include <QString>
#include <QStringList>
#include <QVector>

namespace strata::rewrite::llm {

struct FencedBlock {
    QString language;  // "python", "" (no tag)
    QString code;      // without the fences, '\n' line ends
    bool closed = true;  // false: the answer ended inside the block (cut off)
    int startLine = 0;   // 1-based line of the opening fence in the answer
};

// Every ``` / ~~~ block of `answer` (CRLF or LF), in order.
QVector<FencedBlock> fencedBlocks(const QString &answer);

struct ExtractedAnswer {
    QString code;        // the whole new task file, ending in one '\n'
    QString title;       // "Title:" line, else empty
    QString rationale;   // "Rationale:" line, else the first prose line outside code
    QStringList ruleIds; // "Findings:" line split on commas/spaces, else empty
    bool fenceClosed = true;
};

struct ExtractionContext {
    QString originalText;     // the task file the model was shown ("no change" check)
    QString answerOrigin;     // names the answer in errors: "answer of openai:gpt-4o"
    bool truncated = false;   // the API said the answer hit its token limit
};

// Picks the code: the python (or untagged) fenced block containing `class ModelNew` (the longest
// when several do), else an unfenced answer that is all code. Errors: prose only, cut off inside
// the code, unchanged file, missing @triton.jit / class ModelNew / def get_inputs.
Expected<ExtractedAnswer> extractAnswer(const QString &answer, const ExtractionContext &context);

// The checks extractAnswer applies to the code it picked; empty when the file is fine, else the
// problem in one sentence.
QString sanityProblem(const QString &code, const QString &originalText);

} // namespace strata::rewrite::llm

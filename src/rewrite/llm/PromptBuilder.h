#pragma once
// What a model is told: the task file, the ranked findings with their evidence, the current
// timing, the rules a rewrite must keep, and the answer format CodeExtraction reads. The same
// prompt goes to every provider (the manual one writes it to a file).
#include "rewrite/RewriteProvider.h"

#include <QString>
#include <QVector>

namespace strata::rewrite::llm {

struct Prompt {
    QString system;  // role and rules
    QString user;    // the task, the diagnosis, the answer format

    // Both parts as one markdown document (for the manual provider and logs).
    QString asDocument() const;
};

class PromptBuilder {
public:
    explicit PromptBuilder(int maxFindings = 5) : m_maxFindings(maxFindings) {}

    Prompt build(const RewriteRequest &request) const;

    // The findings in the ladder's order (request.rankedRuleIds first, in that order; the rest
    // by severity, then confidence), at most maxFindings. Exposed for tests and for recording
    // which findings an answer may act on.
    QVector<diagnosis::Finding> rankedFindings(const RewriteRequest &request) const;

    static QString describeEvidence(const diagnosis::Evidence &evidence);

private:
    QString findingsSection(const RewriteRequest &request) const;
    static QString timingSection(const RewriteRequest &request);

    int m_maxFindings;
};

// The rules every rewrite keeps (also shown in docs/llm.md).
QStringList rewriteConstraints();

} // namespace strata::rewrite::llm

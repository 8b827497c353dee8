// The store's optimization half (schemas 4, 5): runs of the loop, the candidates they tried and
// the diagnosis of each round.
#include "store/Store.h"
#include "store/StoreInternal.h"

#include <QJsonArray>

#include <functional>

namespace strata {

using namespace storeinternal;

namespace {

QVariant optionalValue(const std::optional<double> &value)
{
    return value ? QVariant(*value) : QVariant();
}

std::optional<double> optionalDouble(const QVariant &value)
{
    if (value.isNull())
        return std::nullopt;
    return value.toDouble();
}

QString findingsJson(const QStringList &findings)
{
    return QString::fromUtf8(QJsonDocument(QJsonArray::fromStringList(findings)).toJson(QJsonDocument::Compact));
}

QStringList findingsFromJson(const QVariant &text)
{
    QStringList list;
    for (const QJsonValue &value : QJsonDocument::fromJson(text.toString().toUtf8()).array())
        list.append(value.toString());
    return list;
}

QDateTime timestamp(const QVariant &value)
{
    return QDateTime::fromString(value.toString(), Qt::ISODateWithMs);
}

const char *const kRunColumns =
    "id, suite, task_path, task_name, task_sha256, host, config_json, status, outcome_json, created, finished";

OptimizeRunRecord readRun(const QSqlQuery &q)
{
    OptimizeRunRecord run;
    run.id = q.value(0).toLongLong();
    run.suite = q.value(1).toString();
    run.taskPath = q.value(2).toString();
    run.taskName = q.value(3).toString();
    run.taskSha256 = q.value(4).toString();
    run.host = q.value(5).toString();
    run.config = parseObject(q.value(6));
    run.status = q.value(7).toString();
    run.outcome = parseObject(q.value(8));
    run.created = timestamp(q.value(9));
    run.finished = timestamp(q.value(10));
    return run;
}

const char *const kCandidateColumns =
    "id, run_id, parent_id, iteration, provider, recipe, title, path, source_text, source_sha256,"
    " findings_json, expected_json, state, detail, median_ms, speedup_vs_parent, evidence_json,"
    " tokens_in, tokens_out, review, created, updated";

CandidateRow readCandidate(const QSqlQuery &q)
{
    CandidateRow row;
    row.id = q.value(0).toLongLong();
    row.runId = q.value(1).toLongLong();
    row.parentId = q.value(2).toLongLong();
    row.iteration = q.value(3).toInt();
    row.provider = q.value(4).toString();
    row.recipe = q.value(5).toString();
    row.title = q.value(6).toString();
    row.path = q.value(7).toString();
    row.sourceText = q.value(8).toString();
    row.sourceSha256 = q.value(9).toString();
    row.findings = findingsFromJson(q.value(10));
    row.expected = parseObject(q.value(11));
    row.state = q.value(12).toString();
    row.detail = q.value(13).toString();
    row.medianMs = optionalDouble(q.value(14));
    row.speedupVsParent = optionalDouble(q.value(15));
    row.evidence = parseObject(q.value(16));
    row.tokensIn = q.value(17).toLongLong();
    row.tokensOut = q.value(18).toLongLong();
    row.review = q.value(19).toString();
    row.created = timestamp(q.value(20));
    row.updated = timestamp(q.value(21));
    return row;
}

// One statement in its own transaction; returns whether a row was touched.
Expected<bool> writeOne(const QString &connectionName, const QString &path, const QString &what,
                        const std::function<void(QSqlQuery &)> &prepare)
{
    WriteTransaction tx(connection(connectionName), path);
    ReadError error;
    if (!tx.begin(&error))
        return error;
    QSqlQuery q(tx.db());
    prepare(q);
    if (!run(q, path, what, &error))
        return error;
    const bool touched = q.numRowsAffected() > 0;
    if (!tx.commit(&error))
        return error;
    return touched;
}

} // namespace

Expected<qint64> Store::beginOptimizeRun(const OptimizeRunRecord &record)
{
    WriteTransaction tx(connection(m_connectionName), m_path);
    ReadError error;
    if (!tx.begin(&error))
        return error;
    QSqlQuery q(tx.db());
    q.prepare(QStringLiteral("INSERT INTO opt_runs (suite, task_path, task_name, task_sha256, host, config_json,"
                             " status) VALUES (?, ?, ?, ?, ?, ?, 'running')"));
    for (const QVariant &value : {QVariant(record.suite), QVariant(record.taskPath), QVariant(record.taskName),
                                  QVariant(record.taskSha256), QVariant(record.host), QVariant(compactJson(record.config))})
        q.addBindValue(value);
    if (!run(q, m_path, QStringLiteral("cannot record the optimization run of ") + record.taskPath, &error))
        return error;
    const qint64 id = q.lastInsertId().toLongLong();
    if (!tx.commit(&error))
        return error;
    return id;
}

Expected<std::optional<OptimizeRunRecord>> Store::latestOptimizeRun(const QString &taskName, const QString &sha256,
                                                                    const QStringList &statuses) const
{
    QSqlQuery q(connection(m_connectionName));
    const QString placeholders = QStringList(statuses.size(), QStringLiteral("?")).join(u',');
    q.prepare(QStringLiteral("SELECT %1 FROM opt_runs WHERE task_name = ? AND task_sha256 = ?"
                             " AND status IN (%2) ORDER BY id DESC LIMIT 1")
                  .arg(QLatin1String(kRunColumns), placeholders));
    q.addBindValue(taskName);
    q.addBindValue(sha256);
    for (const QString &status : statuses)
        q.addBindValue(status);
    ReadError error;
    if (!run(q, m_path, QStringLiteral("cannot look up earlier runs of %1").arg(taskName), &error))
        return error;
    if (!q.next())
        return std::optional<OptimizeRunRecord>();
    return std::optional<OptimizeRunRecord>(readRun(q));
}

Expected<bool> Store::finishOptimizeRun(qint64 runId, const QString &status, const QJsonObject &outcome)
{
    return writeOne(m_connectionName, m_path, QStringLiteral("cannot finish optimization run %1").arg(runId),
        [&](QSqlQuery &q) {
            q.prepare(QStringLiteral("UPDATE opt_runs SET status = ?, outcome_json = ?,"
                                     " finished = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE id = ?"));
            q.addBindValue(status);
            q.addBindValue(compactJson(outcome));
            q.addBindValue(runId);
        });
}

Expected<QVector<OptimizeRunRecord>> Store::listOptimizeRuns() const
{
    QSqlQuery q(connection(m_connectionName));
    q.prepare(QStringLiteral("SELECT %1 FROM opt_runs ORDER BY id").arg(QLatin1String(kRunColumns)));
    ReadError error;
    if (!run(q, m_path, QStringLiteral("cannot list optimization runs"), &error))
        return error;
    QVector<OptimizeRunRecord> runs;
    while (q.next())
        runs.append(readRun(q));
    return runs;
}

Expected<qint64> Store::insertCandidate(const CandidateRow &row)
{
    WriteTransaction tx(connection(m_connectionName), m_path);
    ReadError error;
    if (!tx.begin(&error))
        return error;
    QSqlQuery q(tx.db());
    q.prepare(QStringLiteral("INSERT INTO opt_candidates (run_id, parent_id, iteration, provider, recipe, title, path,"
                             " source_text, source_sha256, findings_json, expected_json, state, detail, median_ms,"
                             " speedup_vs_parent, evidence_json, tokens_in, tokens_out)"
                             " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    for (const QVariant &value : {QVariant(row.runId), row.parentId ? QVariant(row.parentId) : QVariant(),
                                  QVariant(row.iteration), QVariant(row.provider), QVariant(row.recipe),
                                  QVariant(row.title), QVariant(row.path), QVariant(row.sourceText),
                                  QVariant(row.sourceSha256), QVariant(findingsJson(row.findings)),
                                  QVariant(compactJson(row.expected)), QVariant(row.state), QVariant(row.detail),
                                  optionalValue(row.medianMs), optionalValue(row.speedupVsParent),
                                  QVariant(compactJson(row.evidence)), QVariant(row.tokensIn), QVariant(row.tokensOut)})
        q.addBindValue(value);
    if (!run(q, m_path, QStringLiteral("cannot record a candidate of run %1").arg(row.runId), &error))
        return error;
    const qint64 id = q.lastInsertId().toLongLong();
    if (!tx.commit(&error))
        return error;
    return id;
}

Expected<bool> Store::updateCandidate(const CandidateRow &row)
{
    return writeOne(m_connectionName, m_path, QStringLiteral("cannot update candidate %1").arg(row.id),
        [&](QSqlQuery &q) {
            q.prepare(QStringLiteral("UPDATE opt_candidates SET state = ?, detail = ?, median_ms = ?,"
                                     " speedup_vs_parent = ?, evidence_json = ?, path = ?,"
                                     " updated = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE id = ?"));
            q.addBindValue(row.state);
            q.addBindValue(row.detail);
            q.addBindValue(optionalValue(row.medianMs));
            q.addBindValue(optionalValue(row.speedupVsParent));
            q.addBindValue(compactJson(row.evidence));
            q.addBindValue(row.path);
            q.addBindValue(row.id);
        });
}

Expected<bool> Store::setCandidateReview(qint64 candidateId, const QString &review)
{
    return writeOne(m_connectionName, m_path, QStringLiteral("cannot store the review of candidate %1").arg(candidateId),
        [&](QSqlQuery &q) {
            q.prepare(QStringLiteral("UPDATE opt_candidates SET review = ? WHERE id = ?"));
            q.addBindValue(review);
            q.addBindValue(candidateId);
        });
}

Expected<QVector<CandidateRow>> Store::candidatesForRun(qint64 runId) const
{
    QSqlQuery q(connection(m_connectionName));
    q.prepare(QStringLiteral("SELECT %1 FROM opt_candidates WHERE run_id = ? ORDER BY id").arg(QLatin1String(kCandidateColumns)));
    q.addBindValue(runId);
    ReadError error;
    if (!run(q, m_path, QStringLiteral("cannot read the candidates of run %1").arg(runId), &error))
        return error;
    QVector<CandidateRow> rows;
    while (q.next())
        rows.append(readCandidate(q));
    return rows;
}

Expected<qint64> Store::insertRound(const RoundRow &round)
{
    WriteTransaction tx(connection(m_connectionName), m_path);
    ReadError error;
    if (!tx.begin(&error))
        return error;
    QSqlQuery q(tx.db());
    q.prepare(QStringLiteral("INSERT INTO opt_rounds (run_id, iteration, candidate_id, round_json, ladder_json)"
                             " VALUES (?, ?, ?, ?, ?)"));
    q.addBindValue(round.runId);
    q.addBindValue(round.iteration);
    q.addBindValue(round.candidateId ? QVariant(round.candidateId) : QVariant());
    q.addBindValue(compactJson(round.round));
    q.addBindValue(compactJson(round.ladder));
    if (!run(q, m_path, QStringLiteral("cannot record round %1 of run %2").arg(round.iteration).arg(round.runId), &error))
        return error;
    const qint64 id = q.lastInsertId().toLongLong();
    if (!tx.commit(&error))
        return error;
    return id;
}

Expected<QVector<RoundRow>> Store::roundsForRun(qint64 runId) const
{
    QSqlQuery q(connection(m_connectionName));
    q.prepare(QStringLiteral("SELECT id, run_id, iteration, candidate_id, round_json, ladder_json, created"
                             " FROM opt_rounds WHERE run_id = ? ORDER BY id"));
    q.addBindValue(runId);
    ReadError error;
    if (!run(q, m_path, QStringLiteral("cannot read the rounds of run %1").arg(runId), &error))
        return error;
    QVector<RoundRow> rounds;
    while (q.next()) {
        RoundRow round;
        round.id = q.value(0).toLongLong();
        round.runId = q.value(1).toLongLong();
        round.iteration = q.value(2).toInt();
        round.candidateId = q.value(3).toLongLong();
        round.round = parseObject(q.value(4));
        round.ladder = parseObject(q.value(5));
        round.created = timestamp(q.value(6));
        rounds.append(round);
    }
    return rounds;
}

} // namespace strata

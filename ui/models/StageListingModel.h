#pragma once
// One stage's listing as an item model: row i is listing line i. The code views read their text
// from it, and linking talks in rows through lineForIndex()/indexForLine() (hotspot's idea), so
// views never index listings themselves.
#include "core/StageListing.h"

#include <QAbstractListModel>

namespace strata {

class StageListingModel : public QAbstractListModel {
    Q_OBJECT
public:
    enum Roles {
        LineKindRole = Qt::UserRole + 1,  // int(LineKind)
        OpcodeRole,                       // QString
        SourceLineRole,                   // int, 1-based kernel line or 0 (needs a kernel file)
    };

    explicit StageListingModel(QObject *parent = nullptr);

    // `kernelFile` picks the frame that counts as "the source line" (see frameInFile()).
    void setListing(StageListing listing, const QString &kernelFile = {});
    void clear();

    const StageListing &listing() const { return m_listing; }
    QString stageId() const { return m_listing.stage; }
    QString text() const;  // all lines joined with '\n'

    // Row <-> 0-based listing line; -1 / invalid index when out of range.
    int lineForIndex(const QModelIndex &index) const;
    QModelIndex indexForLine(int line) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
    StageListing m_listing;
    QString m_kernelFile;
};

// The kernel's Python text as a listing whose line i carries source line i + 1.
StageListing sourceListing(const QString &sourceText, const QString &kernelFile);

} // namespace strata

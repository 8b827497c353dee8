#pragma once
// Picks a bundled sample kernel + variant to compile.
#include "app/Samples.h"

#include <QDialog>

class QListWidget;
class QLabel;

namespace strata {

class SamplesDialog : public QDialog {
    Q_OBJECT
public:
    explicit SamplesDialog(const QString &samplesDir, QWidget *parent = nullptr);
    SampleVariant selectedSample() const;

private:
    void showDetails();

    QVector<SampleVariant> m_samples;
    QListWidget *m_list;
    QLabel *m_details;
};

} // namespace strata

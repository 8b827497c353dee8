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
    // `compileTarget`: File > Compile Target's choice, said beside the spec's own (empty: none).
    explicit SamplesDialog(const QString &samplesDir, const QString &compileTarget = {}, QWidget *parent = nullptr);
    SampleVariant selectedSample() const;

private:
    void showDetails();

    QVector<SampleVariant> m_samples;
    QListWidget *m_list;
    QLabel *m_details;
    QString m_compileTarget;
};

} // namespace strata

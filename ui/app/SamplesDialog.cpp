#include "app/SamplesDialog.h"

#include <QDialogButtonBox>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace strata {

SamplesDialog::SamplesDialog(const QString &samplesDir, const QString &compileTarget, QWidget *parent)
    : QDialog(parent)
    , m_samples(findSamples(samplesDir))
    , m_list(new QListWidget(this))
    , m_details(new QLabel(this))
    , m_compileTarget(compileTarget)
{
    setWindowTitle(tr("Open a sample kernel"));
    for (const SampleVariant &sample : std::as_const(m_samples))
        m_list->addItem(sample.title());
    m_details->setWordWrap(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Compile"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_list, &QListWidget::itemDoubleClicked, this, &QDialog::accept);
    connect(m_list, &QListWidget::currentRowChanged, this, &SamplesDialog::showDetails);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(m_samples.isEmpty() ? tr("No samples found in %1.").arg(samplesDir)
                                                     : tr("Samples in %1:").arg(samplesDir),
                                 this));
    layout->addWidget(m_list, 1);
    layout->addWidget(m_details);
    layout->addWidget(buttons);
    if (!m_samples.isEmpty())
        m_list->setCurrentRow(0);
    resize(520, 420);
}

SampleVariant SamplesDialog::selectedSample() const
{
    const int row = m_list->currentRow();
    return (row >= 0 && row < m_samples.size()) ? m_samples[row] : SampleVariant{};
}

void SamplesDialog::showDetails()
{
    const SampleVariant sample = selectedSample();
    QFile file(sample.specPath);
    if (!file.open(QIODevice::ReadOnly)) {
        m_details->clear();
        return;
    }
    const QJsonObject spec = QJsonDocument::fromJson(file.readAll()).object();
    const QJsonObject options = spec.value(QStringLiteral("options")).toObject();
    m_details->setText(tr("Kernel <b>%1</b>, target %2, num_warps %3, num_stages %4")
                           .arg(spec.value(QStringLiteral("kernel")).toString().toHtmlEscaped(),
                                spec.value(QStringLiteral("target")).toString())
                           .arg(options.value(QStringLiteral("num_warps")).toInt())
                           .arg(options.value(QStringLiteral("num_stages")).toInt())
                       + (m_compileTarget.isEmpty() ? QString()
                                                    : QStringLiteral("<br>") + tr("Compiles for %1 (File &gt; Compile Target).").arg(m_compileTarget)));
}

} // namespace strata

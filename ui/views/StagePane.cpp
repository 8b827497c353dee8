#include "views/StagePane.h"

#include "views/CodeView.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QRegularExpression>
#include <QVBoxLayout>

namespace strata {

namespace {

// nvdisasm pads every instruction to column ~36 behind its address; in a narrow pane that
// padding hides the opcodes, so it is shortened for display (line numbers stay the same).
QString compactSass(const QString &text)
{
    static const QRegularExpression padded(QStringLiteral("^\\s+(/\\*[0-9a-f]+\\*/)\\s+"));
    static const QRegularExpression fileComment(QStringLiteral("^\\s+(//##)"));
    QStringList lines = text.split(QLatin1Char('\n'));
    for (QString &line : lines) {
        line.replace(padded, QStringLiteral("\\1  "));
        line.replace(fileComment, QStringLiteral("  \\1"));
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace

StagePane::StagePane(const StageDescriptor &stage, LineLinker *linker, QWidget *parent)
    : QFrame(parent)
    , m_stage(stage)
    , m_linker(linker)
    , m_model(new StageListingModel(this))
    , m_view(new CodeView(this))
    , m_title(new QLabel(this))
    , m_linkedCount(new QLabel(this))
{
    setObjectName(QStringLiteral("pane_") + stage.id);
    m_view->setObjectName(QStringLiteral("view_") + stage.id);
    setFrameShape(QFrame::StyledPanel);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    // The title bar: the stage and its size (rich text, set once per listing) and the count of
    // linked lines, a plain label of its own: it changes on every click, and a rich-text label
    // parses its HTML into a document and asks for a new size each time. Neither label's width
    // may move the splitter: a relayout resizes every pane.
    auto *titleBar = new QWidget(this);
    titleBar->setAutoFillBackground(true);
    titleBar->setBackgroundRole(QPalette::AlternateBase);
    auto *titleLayout = new QHBoxLayout(titleBar);
    titleLayout->setContentsMargins(6, 3, 6, 3);
    titleLayout->setSpacing(12);
    m_title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    m_linkedCount->setTextFormat(Qt::PlainText);
    m_linkedCount->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    QPalette countPalette = m_linkedCount->palette();
    countPalette.setColor(QPalette::WindowText, QColor(0xD0, 0x8A, 0x10));
    m_linkedCount->setPalette(countPalette);
    titleLayout->addWidget(m_title, 2);
    titleLayout->addWidget(m_linkedCount, 1);
    layout->addWidget(titleBar);
    layout->addWidget(m_view, 1);
    setFocusProxy(m_view);
    updateTitle(0);

    connect(m_view, &CodeView::lineClicked, this, &StagePane::activateLine);
    connect(m_linker, &LineLinker::linked, this, &StagePane::onLinked);
}

void StagePane::setListing(const StageListing &listing, const QString &kernelFile)
{
    m_model->setListing(listing, kernelFile);
    m_view->setPlaceholderText({});
    const QString text = m_model->text();
    m_view->setCode(m_stage.format == StageFormat::Sass ? compactSass(text) : text, m_stage.format);
    updateTitle(0);
}

void StagePane::showMessage(const QString &message)
{
    m_model->clear();
    m_view->setPlaceholder(message);
    updateTitle(0);
}

void StagePane::setMarkedLines(const QSet<int> &lines)
{
    m_view->setMarkedLines(lines);
}

QVector<int> StagePane::highlightedLines() const
{
    return m_view->highlightedLines();
}

void StagePane::activateLine(int line)
{
    if (line < 0 || line >= m_model->rowCount())
        return;
    m_linker->activate(this, m_stage.id, line);
}

void StagePane::onLinked(const LinkSelection &selection)
{
    const QVector<int> lines = selection.lines(m_stage.id);
    const int primary = selection.originStage == m_stage.id ? selection.originLine : -1;
    m_view->setHighlightedLines(lines, primary);
    updateLinkedCount(int(lines.size()));
    // The clicked pane keeps its scroll position: the user is looking at that spot already.
    if (selection.sender != this && !lines.isEmpty())
        m_view->scrollToLine(lines.first());
}

void StagePane::updateTitle(int highlighted)
{
    QString title = QStringLiteral("<b>%1</b>").arg(m_stage.displayName.toHtmlEscaped());
    const int lines = m_model->rowCount();
    if (lines > 0)
        title += QStringLiteral("&nbsp;&nbsp;<span style='color:gray'>%1</span>")
                     .arg((lines == 1 ? tr("1 line") : tr("%1 lines").arg(lines)));
    if (title != m_title->text())
        m_title->setText(title);
    updateLinkedCount(highlighted);
}

void StagePane::updateLinkedCount(int highlighted)
{
    m_linkedCount->setText(highlighted > 0 ? tr("%1 linked").arg(highlighted) : QString());
}

} // namespace strata

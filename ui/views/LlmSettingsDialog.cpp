#include "views/LlmSettingsDialog.h"

#include "models/LlmSettings.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace strata {

using rewrite::llm::ApiKind;

LlmSettingsDialog::LlmSettingsDialog(LlmSettings *settings, QWidget *parent)
    : QDialog(parent),
      m_settings(settings),
      m_list(new QListWidget(this)),
      m_name(new QLineEdit(this)),
      m_baseUrl(new QLineEdit(this)),
      m_model(new QLineEdit(this)),
      m_keyEnv(new QLineEdit(this)),
      m_key(new QLineEdit(this)),
      m_kind(new QComboBox(this)),
      m_save(new QPushButton(tr("&Save endpoint"), this)),
      m_remove(new QPushButton(tr("&Remove"), this)),
      m_storeKey(new QPushButton(tr("Store key in &keyring"), this)),
      m_status(new QLabel(this))
{
    setWindowTitle(tr("LLM Endpoints"));
    m_kind->addItem(tr("OpenAI-compatible (OpenAI, vLLM, SGLang, Ollama, DeepSeek, DashScope)"), QStringLiteral("openai"));
    m_kind->addItem(tr("Anthropic messages"), QStringLiteral("anthropic"));
    m_key->setEchoMode(QLineEdit::Password);
    m_key->setPlaceholderText(tr("paste a key to store it in the system keyring (never saved in settings)"));
    m_keyEnv->setPlaceholderText(tr("environment variable with the key, e.g. OPENAI_API_KEY (empty: no key)"));
    m_storeKey->setEnabled(LlmSettings::keyringBuiltIn());
    if (!LlmSettings::keyringBuiltIn())
        m_storeKey->setToolTip(tr("This build has no keyring support: use the environment variable."));
    m_status->setWordWrap(true);

    auto *form = new QFormLayout;
    form->addRow(tr("Name"), m_name);
    form->addRow(tr("API"), m_kind);
    form->addRow(tr("Base URL"), m_baseUrl);
    form->addRow(tr("Model"), m_model);
    form->addRow(tr("Key variable"), m_keyEnv);
    form->addRow(tr("Key"), m_key);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_save);
    buttons->addWidget(m_storeKey);
    buttons->addStretch(1);
    buttons->addWidget(m_remove);
    auto *right = new QVBoxLayout;
    right->addLayout(form);
    right->addLayout(buttons);
    right->addWidget(m_status);
    right->addStretch(1);
    auto *layout = new QHBoxLayout(this);
    layout->addWidget(m_list, 1);
    layout->addLayout(right, 2);

    connect(m_list, &QListWidget::currentRowChanged, this, &LlmSettingsDialog::showEndpoint);
    // A click on the current entry loads it again (over unsaved edits).
    connect(m_list, &QListWidget::itemClicked, this, [this](QListWidgetItem *item) { showEndpoint(m_list->row(item)); });
    connect(m_kind, &QComboBox::currentIndexChanged, this, &LlmSettingsDialog::onKindChanged);
    connect(m_save, &QPushButton::clicked, this, &LlmSettingsDialog::saveEndpoint);
    connect(m_storeKey, &QPushButton::clicked, this, &LlmSettingsDialog::storeKey);
    connect(m_remove, &QPushButton::clicked, this, [this] {
        if (QListWidgetItem *item = m_list->currentItem())
            m_settings->removeEndpoint(item->text());
    });
    connect(m_settings, &LlmSettings::changed, this, &LlmSettingsDialog::reload);
    reload();
    onKindChanged();
}

QString LlmSettingsDialog::statusText() const
{
    return m_status->text();
}

void LlmSettingsDialog::reload()
{
    const QString current = m_list->currentItem() ? m_list->currentItem()->text() : m_name->text();
    const QSignalBlocker blocker(m_list);
    m_list->clear();
    for (const LlmEndpoint &endpoint : m_settings->endpoints())
        m_list->addItem(endpoint.name);
    const QList<QListWidgetItem *> match = m_list->findItems(current, Qt::MatchExactly);
    if (!match.isEmpty())
        m_list->setCurrentItem(match.first());
}

void LlmSettingsDialog::showEndpoint(int row)
{
    const QVector<LlmEndpoint> endpoints = m_settings->endpoints();
    if (row < 0 || row >= endpoints.size())
        return;
    const LlmEndpoint &endpoint = endpoints[row];
    m_name->setText(endpoint.name);
    const QSignalBlocker blocker(m_kind);
    m_kind->setCurrentIndex(m_kind->findData(rewrite::llm::apiKindName(endpoint.config.kind)));
    m_baseUrl->setText(endpoint.config.baseUrl);
    m_model->setText(endpoint.config.model);
    m_keyEnv->setText(endpoint.config.apiKeyEnv);
    m_key->clear();
}

void LlmSettingsDialog::onKindChanged()
{
    // A new entry starts from the kind's public endpoint and usual key variable.
    const ApiKind kind = *rewrite::llm::apiKindFromName(m_kind->currentData().toString());
    const rewrite::llm::ProviderConfig defaults = rewrite::llm::defaultConfig(kind);
    if (m_baseUrl->text().isEmpty())
        m_baseUrl->setText(defaults.baseUrl);
    if (m_keyEnv->text().isEmpty())
        m_keyEnv->setText(defaults.apiKeyEnv);
}

void LlmSettingsDialog::saveEndpoint()
{
    LlmEndpoint endpoint;
    endpoint.name = m_name->text().trimmed();
    endpoint.config = rewrite::llm::defaultConfig(*rewrite::llm::apiKindFromName(m_kind->currentData().toString()));
    endpoint.config.baseUrl = m_baseUrl->text().trimmed();
    endpoint.config.model = m_model->text().trimmed();
    endpoint.config.apiKeyEnv = m_keyEnv->text().trimmed();
    const QString error = m_settings->setEndpoint(endpoint);
    m_status->setText(error.isEmpty() ? tr("Saved %1.").arg(endpoint.name) : error);
}

void LlmSettingsDialog::storeKey()
{
    const QString name = m_name->text().trimmed();
    if (name.isEmpty() || m_key->text().isEmpty()) {
        m_status->setText(tr("Name the endpoint and paste its key first."));
        return;
    }
    const QString error = m_settings->storeKey(name, m_key->text());
    m_key->clear();  // the key stays in the keyring only
    m_status->setText(error.isEmpty() ? tr("The key of %1 is in the system keyring.").arg(name) : error);
}

} // namespace strata

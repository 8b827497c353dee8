#pragma once
// Settings > LLM Endpoints: the endpoints the Run dock can ask for rewrites (OpenAI-compatible:
// OpenAI, vLLM, SGLang, Ollama, DeepSeek, DashScope; Anthropic), each with the environment
// variable that holds its key, or its key stored in the system keyring. The key field is never
// saved with the endpoint and is cleared once stored.
#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;

namespace strata {

class LlmSettings;

class LlmSettingsDialog : public QDialog {
    Q_OBJECT
public:
    explicit LlmSettingsDialog(LlmSettings *settings, QWidget *parent = nullptr);

    QListWidget *endpointList() const { return m_list; }
    QLineEdit *nameField() const { return m_name; }
    QComboBox *kindBox() const { return m_kind; }
    QLineEdit *baseUrlField() const { return m_baseUrl; }
    QLineEdit *modelField() const { return m_model; }
    QLineEdit *keyEnvField() const { return m_keyEnv; }
    QLineEdit *keyField() const { return m_key; }
    QPushButton *saveButton() const { return m_save; }
    QPushButton *removeButton() const { return m_remove; }
    QPushButton *storeKeyButton() const { return m_storeKey; }
    QString statusText() const;

private:
    void reload();
    void showEndpoint(int row);
    void onKindChanged();
    void saveEndpoint();
    void storeKey();

    LlmSettings *m_settings;
    QListWidget *m_list;
    QLineEdit *m_name, *m_baseUrl, *m_model, *m_keyEnv, *m_key;
    QComboBox *m_kind;
    QPushButton *m_save, *m_remove, *m_storeKey;
    QLabel *m_status;
};

} // namespace strata

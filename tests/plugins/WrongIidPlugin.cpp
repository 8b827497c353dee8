// A valid Qt plugin that implements some other interface: the registry must refuse it by IID.
#include <QObject>
#include <QtPlugin>

class WrongIidPlugin : public QObject {
    Q_OBJECT
    Q_PLUGIN_METADATA(IID "dev.example.SomethingElse/1.0")
};

#include "WrongIidPlugin.moc"

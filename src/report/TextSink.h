#pragma once
// Where a report's text goes as it is rendered: a QString (tests, the app's previews) or a file
// written as it grows, so that a report of 10^6 tasks never exists whole in memory.
#include <QByteArray>
#include <QString>
#include <QStringView>

class QIODevice;

namespace strata::report {

class TextSink {
public:
    virtual ~TextSink() = default;
    virtual void write(QStringView text) = 0;
    TextSink &operator<<(QStringView text)
    {
        write(text);
        return *this;
    }
};

class StringSink : public TextSink {
public:
    void write(QStringView text) override { m_text += text; }
    QString take() { return std::move(m_text); }

private:
    QString m_text;
};

// UTF-8 to a device in 256 KiB writes; the first write error is kept and later text dropped.
class DeviceSink : public TextSink {
public:
    explicit DeviceSink(QIODevice *device) : m_device(device) {}
    ~DeviceSink() override { flush(); }
    void write(QStringView text) override;
    bool flush();                       // false once a write failed
    QString error() const { return m_error; }

private:
    QIODevice *m_device;
    QByteArray m_buffer;
    QString m_error;
};

} // namespace strata::report

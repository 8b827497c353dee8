#include "report/TextSink.h"

#include <QIODevice>

namespace strata::report {

namespace {
constexpr qsizetype kFlushBytes = 256 * 1024;
}

void DeviceSink::write(QStringView text)
{
    if (!m_error.isEmpty())
        return;
    m_buffer += text.toUtf8();
    if (m_buffer.size() >= kFlushBytes)
        flush();
}

bool DeviceSink::flush()
{
    if (!m_error.isEmpty())
        return false;
    if (!m_buffer.isEmpty() && m_device->write(m_buffer) != m_buffer.size()) {
        m_error = m_device->errorString();
        return false;
    }
    m_buffer.clear();
    return true;
}

} // namespace strata::report

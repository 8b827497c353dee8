#include "jobs/JobTracker.h"

namespace strata {

JobTracker::JobTracker(QObject *receiver)
    : m_receiver(receiver), m_state(std::make_shared<State>())
{
}

JobTracker::~JobTracker()
{
    cancel();
}

void JobTracker::cancel()
{
    ++m_state->current;
}

void JobTracker::waitForIdle()
{
    for (QFuture<void> &future : m_futures)
        future.waitForFinished();
    m_futures.clear();
}

} // namespace strata

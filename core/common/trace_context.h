#pragma once

#include <string>

namespace docintel::common {

/// The trace id of the request or job this thread is working for ("" when none). Events record
/// it (storage/event_repository), and jobs enqueued by the thread carry it to their workers.
const std::string& currentTraceId();

/// Sets the thread's trace id for its lifetime, restoring the previous one after. Not movable;
/// lives on the stack of the thread it scopes.
class TraceScope {
  public:
    explicit TraceScope(std::string trace_id);
    ~TraceScope();
    TraceScope(const TraceScope&) = delete;
    TraceScope& operator=(const TraceScope&) = delete;

  private:
    std::string previous_;
};

}  // namespace docintel::common

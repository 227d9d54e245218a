#include "common/trace_context.h"

#include <utility>

namespace docintel::common {
namespace {

thread_local std::string t_trace_id;

}  // namespace

const std::string& currentTraceId() { return t_trace_id; }

TraceScope::TraceScope(std::string trace_id) : previous_(std::move(t_trace_id)) {
    t_trace_id = std::move(trace_id);
}

TraceScope::~TraceScope() { t_trace_id = std::move(previous_); }

}  // namespace docintel::common

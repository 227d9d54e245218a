#pragma once

#include <cxxabi.h>

#include <cstdlib>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <typeinfo>
#include <utility>

#include "common/log.h"
#include "plugin_api/plugin.h"

/// The catch-all adapters at the host→plugin boundary: no exception thrown by plugin code
/// reaches the server. Header-only (templates); used by PluginLoader.
namespace docintel::plugin_host {

/// The demangled type of the exception being handled; call only inside a catch block.
inline std::string currentExceptionType() {
    const std::type_info* type = abi::__cxa_current_exception_type();
    if (type == nullptr) return "unknown";
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> demangled(
        abi::__cxa_demangle(type->name(), nullptr, nullptr, &status), std::free);
    return status == 0 && demangled ? std::string(demangled.get()) : std::string(type->name());
}

/// Runs one host→plugin call. Returns nullopt when it returned normally, else a description of
/// what it threw ("<type>: <what>").
template <typename Fn>
std::optional<std::string> catchAll(Fn&& fn) {
    try {
        fn();
        return std::nullopt;
    } catch (const std::exception& e) {
        return currentExceptionType() + ": " + e.what();
    } catch (...) {
        return currentExceptionType();
    }
}

/// The trace id of the call a guarded handler serves, when its arguments carry one.
inline std::string traceIdOf(const plugin::HttpRequest& request) { return request.trace_id; }
inline std::string traceIdOf(const plugin::ToolCall& call) { return call.trace_id; }
template <typename... T>
std::string traceIdOf(const T&...) {
    return {};
}

/// A plugin callable plus what keeps its plugin alive. `owner` is declared first so it is
/// destroyed after `inner` (whose captures may point into the plugin object).
template <typename R, typename... Args>
struct GuardedCall {
    std::shared_ptr<plugin::Plugin> owner;
    std::string plugin_name;
    std::string what;  // e.g. "route fixture_good_echo"
    std::function<R(Args...)> inner;
};

/// Wraps a plugin's handler so that an exception becomes Error::internal (logged as
/// `event=plugin_handler_threw`). Only the exception's type is logged: its message may quote
/// request or document content. The wrapper shares ownership of the plugin object.
template <typename R, typename... Args>
std::function<R(Args...)> guard(std::shared_ptr<plugin::Plugin> owner, std::string plugin_name,
                                std::string what, std::function<R(Args...)> inner) {
    auto call = std::make_shared<const GuardedCall<R, Args...>>(GuardedCall<R, Args...>{
        std::move(owner), std::move(plugin_name), std::move(what), std::move(inner)});
    return [call](Args... args) -> R {
        std::string exception_type;
        try {
            return call->inner(std::forward<Args>(args)...);
        } catch (...) {
            exception_type = currentExceptionType();
        }
        common::log(common::LogLevel::kError, "plugin_handler_threw",
                    {{"plugin", call->plugin_name},
                     {"handler", call->what},
                     {"exception", exception_type},
                     {"trace_id", traceIdOf(args...)}});
        return plugin::Error::internal("the " + call->plugin_name + " plugin failed");
    };
}

}  // namespace docintel::plugin_host

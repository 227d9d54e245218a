#pragma once

#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "result.h"

namespace docintel::plugin {

/// One run of a plugin's durable job (ABI minor 3), on the server's job engine (ARCHITECTURE.md
/// §8): claimed with a lease, retried with backoff, and resumed after a crash from its
/// checkpoint, so a step marked done is not repeated. Valid only during the run; not
/// thread-safe.
class PluginJob {
  public:
    virtual ~PluginJob() = default;
    virtual const std::string& id() const = 0;
    virtual const nlohmann::json& payload() const = 0;
    /// Whether `step` finished, in this run or an earlier one that was cut short.
    virtual bool done(const std::string& step) const = 0;
    /// Records `step` as finished (with `data`, read back through `checkpoint`).
    /// `lease_lost` (409) when this worker no longer holds the job: stop then.
    virtual Status mark(const std::string& step, const nlohmann::json& data = true) = 0;
    /// The finished steps so far (step → data).
    virtual const nlohmann::json& checkpoint() const = 0;
    /// Records progress, 0 to 100 (the checkpoint entry `progress`).
    virtual Status progress(int percent) = 0;
};

/// A kind of job a plugin runs (Registrar::addJobKind). The engine's kind is
/// `plugin.<plugin>.<name>`, so kinds of different plugins never meet.
struct PluginJobKind {
    std::string name;  ///< ^[a-z][a-z0-9_]{0,63}$, unique within the plugin
    /// Runs the job: ok finishes it; an Error with a 4xx status fails it for good (bad input);
    /// any other Error is retried with backoff (5 attempts).
    std::function<Status(PluginJob&)> run;
};

}  // namespace docintel::plugin

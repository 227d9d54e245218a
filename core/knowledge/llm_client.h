#pragma once

#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "plugin_api/result.h"

namespace docintel::knowledge {

/// Where an OpenAI-compatible chat-completions endpoint is (docs/knowledge.md "LLM mode").
/// `base_url` is the API root the endpoint paths hang from, e.g. `http://127.0.0.1:8000/v1`;
/// requests go to `<base_url>/chat/completions`. Empty `base_url` = LLM mode off.
struct LlmConfig {
    std::string base_url;
    std::string model;
    std::string api_key;     ///< sent as `Authorization: Bearer` when set
    int timeout_ms = 30000;  ///< the whole completion, first byte to `[DONE]`
    bool enabled() const { return !base_url.empty() && !model.empty(); }
};

/// What a completion produced.
struct LlmCompletion {
    std::string text;
    std::string model;  ///< as the endpoint names it (else the configured one)
    double first_token_ms = 0;
    double total_ms = 0;
};

/// A streaming client for `POST /chat/completions` (`stream: true`; the answer arrives as SSE
/// `data:` chunks of `choices[0].delta.content`, ended by `data: [DONE]`). HTTP and HTTPS
/// (Poco::Net / NetSSL, the system's CA certificates). A non-streamed JSON reply
/// (`choices[0].message.content`) is accepted too. Thread-safe: each call has its own session.
class LlmClient {
  public:
    explicit LlmClient(LlmConfig config);

    const LlmConfig& config() const { return config_; }

    /// Sends `messages` (the OpenAI `messages` array) and calls `on_token` with each piece of
    /// text as it arrives; `on_token` returning false stops reading (error `llm_cancelled`).
    /// Errors: `llm_unavailable` (connection, HTTP status, malformed stream), `llm_timeout`.
    plugin::Result<LlmCompletion> complete(const nlohmann::json& messages,
                                           const std::function<bool(const std::string&)>& on_token,
                                           double temperature = 0) const;

  private:
    LlmConfig config_;
};

}  // namespace docintel::knowledge

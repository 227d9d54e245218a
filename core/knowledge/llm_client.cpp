#include "knowledge/llm_client.h"

#include <chrono>
#include <istream>
#include <memory>

#include <Poco/Exception.h>
#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/Net/HTTPSClientSession.h>
#include <Poco/Net/NetException.h>
#include <Poco/StreamCopier.h>
#include <Poco/URI.h>

#include "common/clock.h"
#include "common/tls_client.h"

namespace docintel::knowledge {
namespace {

plugin::Error unavailable(const std::string& message) {
    return plugin::Error::unavailable("llm_unavailable", message);
}
plugin::Error timedOut(int timeout_ms) {
    return plugin::Error::unavailable(
        "llm_timeout", "the LLM did not finish within " + std::to_string(timeout_ms) + " ms");
}

std::string trimmed(std::string s) {
    while (!s.empty() && (s.back() == '\r' || s.back() == ' ')) s.pop_back();
    std::size_t from = 0;
    while (from < s.size() && s[from] == ' ') ++from;
    return s.substr(from);
}

}  // namespace

LlmClient::LlmClient(LlmConfig config) : config_(std::move(config)) {
    while (!config_.base_url.empty() && config_.base_url.back() == '/') config_.base_url.pop_back();
}

plugin::Result<LlmCompletion> LlmClient::complete(
    const nlohmann::json& messages, const std::function<bool(const std::string&)>& on_token,
    double temperature) const {
    const auto started = std::chrono::steady_clock::now();
    const auto deadline = started + std::chrono::milliseconds(config_.timeout_ms);
    const auto remaining = [&] {
        const auto left = std::chrono::duration_cast<std::chrono::microseconds>(
                              deadline - std::chrono::steady_clock::now())
                              .count();
        return Poco::Timespan(std::max<long long>(left, 1000));
    };
    LlmCompletion out;
    out.model = config_.model;
    try {
        const Poco::URI uri(config_.base_url + "/chat/completions");
        std::unique_ptr<Poco::Net::HTTPClientSession> session;
        if (uri.getScheme() == "https") {
            session = std::make_unique<Poco::Net::HTTPSClientSession>(uri.getHost(), uri.getPort(),
                                                                      common::tlsClientContext());
        } else if (uri.getScheme() == "http") {
            session = std::make_unique<Poco::Net::HTTPClientSession>(uri.getHost(), uri.getPort());
        } else {
            return unavailable("DOCINTEL_LLM_BASE_URL must be an http(s) URL");
        }
        session->setTimeout(remaining());

        const std::string body = nlohmann::json{
            {"model", config_.model},
            {"messages", messages},
            {"stream", true},
            {"temperature",
             temperature}}.dump();
        Poco::Net::HTTPRequest request(Poco::Net::HTTPRequest::HTTP_POST, uri.getPathAndQuery(),
                                       Poco::Net::HTTPMessage::HTTP_1_1);
        request.setContentType("application/json");
        request.set("Accept", "text/event-stream");
        if (!config_.api_key.empty()) request.set("Authorization", "Bearer " + config_.api_key);
        request.setContentLength(static_cast<std::streamsize>(body.size()));
        session->sendRequest(request) << body;

        Poco::Net::HTTPResponse response;
        std::istream& in = session->receiveResponse(response);
        in.exceptions(std::ios::badbit);
        if (response.getStatus() != Poco::Net::HTTPResponse::HTTP_OK) {
            std::string text;
            Poco::StreamCopier::copyToString(in, text);
            if (text.size() > 300) text.resize(300);
            return unavailable("the LLM answered HTTP " +
                               std::to_string(static_cast<int>(response.getStatus())) + ": " +
                               text);
        }

        // Not streamed after all: one JSON completion.
        if (response.getContentType().find("text/event-stream") == std::string::npos) {
            std::string text;
            Poco::StreamCopier::copyToString(in, text);
            const auto j = nlohmann::json::parse(text, nullptr, false);
            if (j.is_discarded() || !j.contains("choices") || j["choices"].empty()) {
                return unavailable("the LLM's reply is not a chat completion");
            }
            out.text = j["choices"][0]["message"].value("content", "");
            out.model = j.value("model", out.model);
            out.first_token_ms = out.total_ms = common::millisecondsSince(started);
            if (!out.text.empty() && !on_token(out.text)) {
                return plugin::Error::unavailable("llm_cancelled", "the client went away");
            }
            return out;
        }

        bool done = false;
        std::string line;
        while (!done && std::getline(in, line)) {
            if (std::chrono::steady_clock::now() > deadline) return timedOut(config_.timeout_ms);
            session->setTimeout(remaining());
            line = trimmed(line);
            if (line.rfind("data:", 0) != 0) continue;  // blank separators, comments, event:
            const std::string data = trimmed(line.substr(5));
            if (data == "[DONE]") {
                done = true;
                break;
            }
            const auto chunk = nlohmann::json::parse(data, nullptr, false);
            if (chunk.is_discarded()) return unavailable("the LLM sent a malformed stream chunk");
            if (chunk.contains("error")) {
                return unavailable("the LLM reported an error: " + chunk["error"].dump());
            }
            if (chunk.contains("model") && chunk["model"].is_string()) {
                out.model = chunk["model"].get<std::string>();
            }
            if (!chunk.contains("choices") || !chunk["choices"].is_array() ||
                chunk["choices"].empty()) {
                continue;
            }
            const auto& choice = chunk["choices"][0];
            if (choice.contains("delta") && choice["delta"].contains("content") &&
                choice["delta"]["content"].is_string()) {
                const std::string piece = choice["delta"]["content"].get<std::string>();
                if (piece.empty()) continue;
                if (out.text.empty()) out.first_token_ms = common::millisecondsSince(started);
                out.text += piece;
                if (!on_token(piece)) {
                    return plugin::Error::unavailable("llm_cancelled", "the client went away");
                }
            }
        }
        if (!done) return unavailable("the LLM's stream ended before [DONE]");
        out.total_ms = common::millisecondsSince(started);
        return out;
    } catch (const Poco::TimeoutException&) {
        return timedOut(config_.timeout_ms);
    } catch (const Poco::Exception& e) {
        return unavailable("the LLM cannot be reached: " + e.displayText());
    } catch (const std::exception& e) {
        return unavailable(std::string("the LLM cannot be reached: ") + e.what());
    }
}

}  // namespace docintel::knowledge

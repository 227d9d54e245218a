#pragma once

// An OpenAI-compatible chat-completions endpoint run by a test (a Poco HTTP server answering
// POST /v1/chat/completions with SSE streams). What it answers is decided per request by a
// responder the test sets, so requests the server makes on its own (classification during
// ingestion, the map and reduce steps of a summary) can each get a fitting reply.

#include <Poco/Net/HTTPRequestHandler.h>
#include <Poco/Net/HTTPRequestHandlerFactory.h>
#include <Poco/Net/HTTPServer.h>
#include <Poco/Net/HTTPServerParams.h>
#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/StreamCopier.h>

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

namespace docintel::test {

class FakeLlm {
  public:
    struct Reply {
        std::vector<std::string> pieces;  ///< delta contents, one SSE chunk each
        int delay_ms = 0;                 ///< before the response starts
        int status = 200;                 ///< anything else: that status with an error body
    };
    /// Decides the reply to a request body (the parsed JSON the server sent).
    using Responder = std::function<Reply(const nlohmann::json& request)>;

    FakeLlm() {
        Poco::Net::ServerSocket socket(Poco::Net::SocketAddress("127.0.0.1", 0));
        port_ = socket.address().port();
        auto* params = new Poco::Net::HTTPServerParams;
        params->setMaxThreads(4);
        server_ = std::make_unique<Poco::Net::HTTPServer>(new Factory(*this), socket, params);
        server_->start();
    }
    ~FakeLlm() { server_->stopAll(true); }

    /// The base URL to configure (DOCINTEL_LLM_BASE_URL).
    std::string baseUrl() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }

    void setResponder(Responder responder) {
        std::lock_guard lock(mutex_);
        responder_ = std::move(responder);
    }
    std::vector<nlohmann::json> requests() const {
        std::lock_guard lock(mutex_);
        return requests_;
    }
    /// The `Authorization` header of each request, in order.
    std::vector<std::string> authorizations() const {
        std::lock_guard lock(mutex_);
        return authorizations_;
    }
    void clearRequests() {
        std::lock_guard lock(mutex_);
        requests_.clear();
        authorizations_.clear();
    }

    /// A text split into word-sized pieces, as a model streams.
    static std::vector<std::string> words(const std::string& text) {
        std::vector<std::string> out;
        std::size_t from = 0;
        while (from < text.size()) {
            std::size_t to = text.find(' ', from + 1);
            if (to == std::string::npos) to = text.size();
            out.push_back(text.substr(from, to - from));
            from = to;
        }
        return out;
    }
    static std::string systemOf(const nlohmann::json& request) {
        return request["messages"][0].value("content", "");
    }
    static std::string userOf(const nlohmann::json& request) {
        return request["messages"][1].value("content", "");
    }

  private:
    class Handler : public Poco::Net::HTTPRequestHandler {
      public:
        explicit Handler(FakeLlm& owner) : owner_(owner) {}
        void handleRequest(Poco::Net::HTTPServerRequest& request,
                           Poco::Net::HTTPServerResponse& response) override {
            std::string body;
            Poco::StreamCopier::copyToString(request.stream(), body);
            const auto parsed = nlohmann::json::parse(body, nullptr, false);
            Responder responder;
            {
                std::lock_guard lock(owner_.mutex_);
                owner_.requests_.push_back(parsed);
                owner_.authorizations_.push_back(request.get("Authorization", ""));
                responder = owner_.responder_;
            }
            if (request.getURI() != "/v1/chat/completions" || !responder) {
                response.setStatus(Poco::Net::HTTPResponse::HTTP_NOT_FOUND);
                response.send() << "{}";
                return;
            }
            const Reply reply = responder(parsed);
            if (reply.delay_ms) {
                std::this_thread::sleep_for(std::chrono::milliseconds(reply.delay_ms));
            }
            if (reply.status != 200) {
                response.setStatus(static_cast<Poco::Net::HTTPResponse::HTTPStatus>(reply.status));
                response.setContentType("application/json");
                response.send() << R"({"error": {"message": "model overloaded"}})";
                return;
            }
            response.setContentType("text/event-stream");
            response.setChunkedTransferEncoding(true);
            std::ostream& out = response.send();
            const auto chunk = [&](const nlohmann::json& delta) {
                out << "data: "
                    << nlohmann::json{{"id", "chatcmpl-1"},
                                      {"object", "chat.completion.chunk"},
                                      {"model", "fake-llm-1"},
                                      {"choices", {{{"index", 0}, {"delta", delta}}}}}
                           .dump()
                    << "\n\n";
                out.flush();
            };
            chunk({{"role", "assistant"}});
            for (const auto& p : reply.pieces) chunk({{"content", p}});
            out << "data: [DONE]\n\n";
            out.flush();
        }

      private:
        FakeLlm& owner_;
    };
    class Factory : public Poco::Net::HTTPRequestHandlerFactory {
      public:
        explicit Factory(FakeLlm& owner) : owner_(owner) {}
        Poco::Net::HTTPRequestHandler* createRequestHandler(
            const Poco::Net::HTTPServerRequest&) override {
            return new Handler(owner_);
        }

      private:
        FakeLlm& owner_;
    };

    int port_ = 0;
    mutable std::mutex mutex_;
    Responder responder_;
    std::vector<nlohmann::json> requests_;
    std::vector<std::string> authorizations_;
    std::unique_ptr<Poco::Net::HTTPServer> server_;
};

}  // namespace docintel::test

// bench/events: the event log's outbox and webhook delivery under load (docs/events.md).
//
// An in-process server (App) on a fresh database, a local receiver (Poco HTTPServer, answers
// 204), writers on their own connections emitting events in transactions. Prints:
//   - events written per second by 8 concurrent writers, with no subscription and with 3
//     subscriptions matching every event (the outbox's cost on the writing transaction), in
//     alternating rounds on the same table;
//   - deliveries per second for the 3 × N deliveries of that burst (written while no server
//     runs, then drained from a server start);
//   - commit → receipt p50/p99 for events written at a steady 20/s (an otherwise idle system).
// Usage: events_bench <postgres URL of a fresh database> [events]

#include <Poco/Net/HTTPRequestHandler.h>
#include <Poco/Net/HTTPRequestHandlerFactory.h>
#include <Poco/Net/HTTPServer.h>
#include <Poco/Net/HTTPServerRequest.h>
#include <Poco/Net/HTTPServerResponse.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/StreamCopier.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "auth/password_hasher.h"
#include "common/base64url.h"
#include "common/id.h"
#include "common/log.h"
#include "common/secret_box.h"
#include "events/webhook_signer.h"
#include "server/app.h"
#include "storage/database.h"
#include "storage/event_repository.h"
#include "storage/user_repository.h"
#include "storage/webhook_repository.h"

namespace {

using namespace docintel;
using Clock = std::chrono::system_clock;

long long nowUs() {
    return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now().time_since_epoch())
        .count();
}

/// Arrival time of each (event id) per receiver path; guarded by mutex.
struct Receipts {
    std::mutex mutex;
    std::map<std::string, std::vector<long long>> by_event;
    std::atomic<long long> count{0};
};

class Handler final : public Poco::Net::HTTPRequestHandler {
  public:
    explicit Handler(Receipts& r) : r_(r) {}
    void handleRequest(Poco::Net::HTTPServerRequest& req,
                       Poco::Net::HTTPServerResponse& resp) override {
        std::string body;
        Poco::StreamCopier::copyToString(req.stream(), body);
        const long long at = nowUs();
        const auto j = nlohmann::json::parse(body, nullptr, false);
        if (!j.is_discarded() && j.contains("id")) {
            std::lock_guard lock(r_.mutex);
            r_.by_event[j["id"].get<std::string>()].push_back(at);
        }
        ++r_.count;
        resp.setStatus(Poco::Net::HTTPResponse::HTTP_NO_CONTENT);
        resp.setContentLength(0);
        resp.send();
    }

  private:
    Receipts& r_;
};

class Factory final : public Poco::Net::HTTPRequestHandlerFactory {
  public:
    explicit Factory(Receipts& r) : r_(r) {}
    Poco::Net::HTTPRequestHandler* createRequestHandler(
        const Poco::Net::HTTPServerRequest&) override {
        return new Handler(r_);
    }

  private:
    Receipts& r_;
};

double percentile(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<std::size_t>(p * (v.size() - 1) + 0.5))];
}

/// `total` events of `type` from `writers` threads; returns events per second and each event's
/// commit time (µs) by id.
double writeEvents(const std::string& url, const std::string& user, int total, int writers,
                   const std::string& type, std::map<std::string, long long>& committed) {
    std::mutex mutex;
    std::vector<std::thread> threads;
    const auto started = std::chrono::steady_clock::now();
    for (int w = 0; w < writers; ++w) {
        threads.emplace_back([&, w] {
            storage::Database db(url, 1);
            std::vector<std::pair<std::string, long long>> mine;
            for (int i = w; i < total; i += writers) {
                std::string id;
                auto ok = db.transact([&](storage::Tx& tx) -> plugin::Result<bool> {
                    storage::Event e;
                    e.type = type;
                    e.resource_type = "bench";
                    e.resource_id = "bench";
                    e.user_id = user;
                    e.payload = {{"n", i}};
                    id = storage::EventRepository::emit(tx, e);
                    return true;
                });
                if (!ok) {
                    std::cerr << "write failed: " << ok.error().message << "\n";
                    std::exit(1);
                }
                mine.emplace_back(id, nowUs());
            }
            std::lock_guard lock(mutex);
            for (auto& [id, at] : mine) committed[id] = at;
        });
    }
    for (auto& t : threads) t.join();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return total / seconds;
}

/// Commit → receipt latencies (ms) of `committed` events, waiting up to `wait_s` for all
/// `per_event` receipts. Returns the latencies and the last receipt time.
std::vector<double> latencies(Receipts& r, const std::map<std::string, long long>& committed,
                              std::size_t per_event, int wait_s, long long* last_receipt) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(wait_s);
    while (std::chrono::steady_clock::now() < deadline) {
        std::size_t complete = 0;
        {
            std::lock_guard lock(r.mutex);
            for (const auto& [id, _] : committed) {
                const auto it = r.by_event.find(id);
                if (it != r.by_event.end() && it->second.size() >= per_event) ++complete;
            }
        }
        if (complete == committed.size()) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    std::vector<double> out;
    *last_receipt = 0;
    std::lock_guard lock(r.mutex);
    for (const auto& [id, at] : committed) {
        const auto it = r.by_event.find(id);
        if (it == r.by_event.end()) continue;
        for (const long long received : it->second) {
            out.push_back((received - at) / 1000.0);
            *last_receipt = std::max(*last_receipt, received);
        }
    }
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: events_bench <postgres URL of a fresh database> [events]\n";
        return 2;
    }
    common::setLogLevel(common::LogLevel::kWarning);  // not a line per delivery
    const std::string url = argv[1];
    const int total = argc > 2 ? std::atoi(argv[2]) : 10000;
    constexpr int kWriters = 8;
    constexpr int kSubscriptions = 3;
    namespace fs = std::filesystem;
    const std::string data_dir =
        (fs::temp_directory_path() / ("docintel-events-bench-" + common::newUuid())).string();
    fs::create_directories(data_dir + "/plugins");

    Receipts receipts;
    Poco::Net::ServerSocket socket(Poco::Net::SocketAddress("127.0.0.1", 0));
    auto* params = new Poco::Net::HTTPServerParams;
    params->setMaxThreads(16);
    params->setMaxQueued(1000);
    Poco::Net::HTTPServer receiver(new Factory(receipts), socket, params);
    receiver.start();
    const int receiver_port = socket.address().port();

    server::Config config;
    config.database_url = url;
    config.data_dir = data_dir;
    config.host = "127.0.0.1";
    config.port = 0;
    config.mcp_port = 0;
    config.plugins_dir = data_dir + "/plugins";
    config.models_dir = data_dir + "/no-models";
    config.webhook_allow_http = true;
    config.webhook_allow_private = true;

    // The schema, then no server while the writers measure: the outbox's cost on the writing
    // transaction alone, not the CPU the senders would take meanwhile.
    {
        server::App migrate(config);
        migrate.start();
        migrate.stop(0);
    }
    storage::Database db(url, 2);
    storage::UserRepository users(db);
    auto user = users.create("bench@example.com", "bench",
                             auth::PasswordHasher::hash("bench-password", 1000), false);
    if (!user) {
        std::cerr << "user: " << user.error().message << "\n";
        return 1;
    }

    // Three subscriptions on the local receiver, matching every event of the user.
    const auto box = common::SecretBox::loadOrCreate(config.keysDir() + "/webhook-secrets.key");
    storage::WebhookRepository webhooks(db);
    for (int s = 0; s < kSubscriptions; ++s) {
        storage::Subscription sub;
        sub.owner_id = user->id;
        sub.event_types = {"bench.written"};
        sub.webhook_url =
            "http://127.0.0.1:" + std::to_string(receiver_port) + "/s" + std::to_string(s);
        sub.secret_box = common::base64UrlEncode(box->seal(events::WebhookSigner::newSecret()));
        if (auto ok = webhooks.create(sub); !ok) {
            std::cerr << "subscription: " << ok.error().message << "\n";
            return 1;
        }
    }
    // A warm-up, then alternating rounds of events no subscription matches and events all three
    // match, on the same table, so that neither side gains from running first on a smaller
    // table or a quieter machine.
    std::map<std::string, long long> ignored, burst;
    (void)writeEvents(url, user->id, total / 5, kWriters, "bench.unmatched", ignored);
    constexpr int kRounds = 4;
    double bare_seconds = 0, fanout_seconds = 0;
    for (int round = 0; round < kRounds; ++round) {
        const int n = total / kRounds;
        ignored.clear();
        bare_seconds += n / writeEvents(url, user->id, n, kWriters, "bench.unmatched", ignored);
        std::map<std::string, long long> written;
        fanout_seconds += n / writeEvents(url, user->id, n, kWriters, "bench.written", written);
        burst.insert(written.begin(), written.end());
    }
    const double bare_rate = total / bare_seconds;
    const double fanout_rate = total / fanout_seconds;
    // The server starts on the backlog: numbering, then 3 × N deliveries.
    const long long drain_start = nowUs();
    server::App app(config);
    app.start();
    long long last = 0;
    const auto burst_latency = latencies(receipts, burst, kSubscriptions, 900, &last);
    const double delivery_rate = burst_latency.size() / ((last - drain_start) / 1e6);

    // Steady trickle on an otherwise idle system: 20 events per second for 10 s.
    std::map<std::string, long long> steady;
    for (int i = 0; i < 200; ++i) {
        std::map<std::string, long long> one;
        writeEvents(url, user->id, 1, 1, "bench.written", one);
        steady.insert(one.begin(), one.end());
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    const auto steady_latency = latencies(receipts, steady, kSubscriptions, 60, &last);

    std::printf("events written/s, %d writers, no subscription:   %.0f\n", kWriters, bare_rate);
    std::printf(
        "events written/s, %d writers, 3 subscriptions:   %.0f  (outbox overhead %.1f %%)\n",
        kWriters, fanout_rate, 100.0 * (1.0 - fanout_rate / bare_rate));
    std::printf("deliveries/s (%zu of %d backlogged, server start to last receipt): %.0f\n",
                burst_latency.size(), total * kSubscriptions, delivery_rate);
    std::printf("steady 20/s commit->receipt ms: p50 %.0f  p99 %.0f  (%zu deliveries)\n",
                percentile(steady_latency, 0.5), percentile(steady_latency, 0.99),
                steady_latency.size());
    app.stop(1000);
    receiver.stop();
    fs::remove_all(data_dir);
    return 0;
}

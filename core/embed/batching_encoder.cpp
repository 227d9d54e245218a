#include "embed/batching_encoder.h"

#include <algorithm>
#include <chrono>

#include "common/clock.h"

namespace docintel::embed {

BatchingEncoder::BatchingEncoder(const SentenceEncoder& encoder, Options options)
    : encoder_(encoder), options_(options) {
    stats_.encoders = options_.encoders > 0 ? options_.encoders : encoder_.threads();
    for (int i = 0; i < stats_.encoders; ++i) threads_.emplace_back([this] { run(); });
}

BatchingEncoder::~BatchingEncoder() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    queued_.notify_all();
    for (auto& thread : threads_) thread.join();
}

plugin::Result<std::vector<std::vector<float>>> BatchingEncoder::encode(
    std::vector<std::string> texts) {
    if (texts.empty()) return std::vector<std::vector<float>>{};
    Request request;
    request.texts = std::move(texts);
    std::unique_lock lock(mutex_);
    if (stopping_) return request.result;
    queue_.push_back(&request);
    queued_.notify_one();
    finished_.wait(lock, [&] { return request.done; });
    return std::move(request.result);
}

BatchingEncoder::Stats BatchingEncoder::stats() const {
    std::lock_guard lock(mutex_);
    return stats_;
}

void BatchingEncoder::run() {
    std::unique_lock lock(mutex_);
    while (true) {
        queued_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
        if (stopping_) break;
        // Every request waiting, in order, while they fit; the first one always.
        std::vector<Request*> taken;
        std::size_t count = 0;
        while (!queue_.empty() &&
               (taken.empty() || count + queue_.front()->texts.size() <= options_.max_texts)) {
            count += queue_.front()->texts.size();
            taken.push_back(queue_.front());
            queue_.pop_front();
        }
        lock.unlock();

        std::vector<std::string> texts;
        texts.reserve(count);
        for (Request* r : taken) texts.insert(texts.end(), r->texts.begin(), r->texts.end());
        const auto started = std::chrono::steady_clock::now();
        auto vectors = encoder_.encode(texts, options_.batch_size, 1);
        const double busy = common::millisecondsSince(started);

        lock.lock();
        std::size_t next = 0;
        for (Request* r : taken) {
            if (vectors) {
                const auto first = vectors->begin() + static_cast<std::ptrdiff_t>(next);
                r->result = std::vector<std::vector<float>>(
                    std::make_move_iterator(first),
                    std::make_move_iterator(first + static_cast<std::ptrdiff_t>(r->texts.size())));
                next += r->texts.size();
            } else {
                r->result = vectors.error();
            }
            r->done = true;
        }
        stats_.calls += 1;
        stats_.requests += taken.size();
        stats_.texts += count;
        stats_.busy_ms += busy;
        finished_.notify_all();
    }
    // Stopping: whoever still waits gets encoder_stopped.
    for (Request* r : queue_) r->done = true;
    queue_.clear();
    finished_.notify_all();
}

}  // namespace docintel::embed

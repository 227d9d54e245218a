#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "embed/sentence_encoder.h"
#include "plugin_api/result.h"

namespace docintel::embed {

/// Encoding threads shared by the threads that embed documents (docs/decisions/0059). encode()
/// queues its texts and blocks until they are encoded; a free encoding thread takes every
/// request waiting (up to `max_texts` texts, at least one request) and encodes them as one
/// single-threaded call of the SentenceEncoder. So the callers' other work — parsing, the
/// database — runs while the encoders compute, the number of computing threads never exceeds
/// the cores given to the encoder, and no encoder call waits at a barrier for a thread the
/// scheduler gave to Postgres. Thread-safe; the destructor fails what is still queued.
class BatchingEncoder {
  public:
    struct Options {
        /// Texts per encoder call at most (one request larger than this is encoded whole).
        std::size_t max_texts = 256;
        int batch_size = 32;  ///< SentenceEncoder::encode's batch size
        /// Encoding threads, each computing on one core; 0 = the SentenceEncoder's
        /// Options::threads.
        int encoders = 0;
    };

    /// What the encoding threads have done since start.
    struct Stats {
        std::uint64_t calls = 0;     ///< encoder calls
        std::uint64_t requests = 0;  ///< encode() requests served
        std::uint64_t texts = 0;
        double busy_ms = 0;  ///< time inside SentenceEncoder::encode, summed over encoders
        int encoders = 1;    ///< encoding threads
    };

    /// `encoder` must outlive this object.
    BatchingEncoder(const SentenceEncoder& encoder, Options options);
    explicit BatchingEncoder(const SentenceEncoder& encoder)
        : BatchingEncoder(encoder, Options{}) {}
    ~BatchingEncoder();
    BatchingEncoder(const BatchingEncoder&) = delete;
    BatchingEncoder& operator=(const BatchingEncoder&) = delete;

    /// One vector per text, in order, as SentenceEncoder::encode returns them.
    plugin::Result<std::vector<std::vector<float>>> encode(std::vector<std::string> texts);

    Stats stats() const;
    const SentenceEncoder& encoder() const { return encoder_; }

  private:
    struct Request {
        std::vector<std::string> texts;
        plugin::Result<std::vector<std::vector<float>>> result =
            plugin::Error::unavailable("encoder_stopped", "the encoder stopped");
        bool done = false;
    };

    void run();

    const SentenceEncoder& encoder_;
    const Options options_;
    mutable std::mutex mutex_;
    std::condition_variable queued_;    ///< the encoding thread waits for requests
    std::condition_variable finished_;  ///< callers wait for their request
    std::deque<Request*> queue_;
    bool stopping_ = false;
    Stats stats_;
    std::vector<std::thread> threads_;  ///< last: started once the members above exist
};

}  // namespace docintel::embed

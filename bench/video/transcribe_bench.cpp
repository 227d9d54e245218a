// Transcription speed of the video plugin's wrapper (plugins/video/transcriber.h), as the plugin
// uses it: the file decoded with decodeAudio16kMono, then makeWhisperTranscriber(models_dir,
// threads)->transcribe(pcm, language). Each run makes a new transcriber, so the model is loaded
// again (as whisper-cli does per run): the load is timed apart, by a transcription of nothing
// (the wrapper loads the model and returns before recognising under 0.1 s of audio), then the
// transcription itself. Wall time (steady clock) and CPU time (getrusage(RUSAGE_SELF),
// user + sys of every thread) per run, and the median of each over the runs
// (bench/video/README.md).
//
// Usage: video_transcribe_bench <media file> <models_dir> <language: en|auto|...>
//                               [--runs N (3)] [--threads N (2)] [--text FILE]
// Set OMP_WAIT_POLICY=passive in the environment (whisper.cpp's OpenMP threads otherwise spin).

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "video/media.h"
#include "video/transcriber.h"

using namespace docintel::video;

namespace {

double cpuSeconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 4) {
        std::cerr << "usage: video_transcribe_bench <media file> <models_dir> <language> "
                     "[--runs N] [--threads N] [--text FILE]\n";
        return 2;
    }
    const std::string file = argv[1], models = argv[2], language = argv[3];
    int runs = 3, threads = 2;
    std::string text_file;
    for (int i = 4; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--runs")
            runs = std::max(1, std::atoi(argv[i + 1]));
        else if (flag == "--threads")
            threads = std::max(1, std::atoi(argv[i + 1]));
        else if (flag == "--text")
            text_file = argv[i + 1];
        else {
            std::cerr << "unknown option " << flag << "\n";
            return 2;
        }
    }
    if (const char* wait = std::getenv("OMP_WAIT_POLICY");
        !wait || std::string(wait) != "passive") {
        std::cerr << "warning: OMP_WAIT_POLICY is not passive\n";
    }

    const double d0 = now();
    auto pcm = decodeAudio16kMono(file);
    if (!pcm) {
        std::cerr << "decode: " << pcm.error().message << "\n";
        return 1;
    }
    const double audio = static_cast<double>(pcm->size()) / 16000.0;
    std::printf("file %s: %.2f s of audio, decoded in %.3f s; language %s, %d threads\n",
                file.c_str(), audio, now() - d0, language.c_str(), threads);

    std::vector<double> loads, walls, cpus, totals, total_cpus;
    const std::vector<float> nothing;
    for (int run = 1; run <= runs; ++run) {
        auto transcriber = makeWhisperTranscriber(models, threads);
        const double c0 = cpuSeconds(), t0 = now();
        auto loaded = transcriber->transcribe(nothing, language, {});
        const double t1 = now(), c1 = cpuSeconds();
        if (!loaded) {
            std::cerr << "load: " << loaded.error().message << "\n";
            return 1;
        }
        auto heard = transcriber->transcribe(*pcm, language, {});
        const double t2 = now(), c2 = cpuSeconds();
        if (!heard) {
            std::cerr << "transcribe: " << heard.error().message << "\n";
            return 1;
        }
        loads.push_back(t1 - t0);
        walls.push_back(t2 - t1);
        cpus.push_back(c2 - c1);
        totals.push_back(t2 - t0);
        total_cpus.push_back(c2 - c0);
        std::size_t words = 0;
        for (const auto& cue : heard->cues) {
            words += static_cast<std::size_t>(std::count(cue.text.begin(), cue.text.end(), ' ') +
                                              (cue.text.empty() ? 0 : 1));
        }
        std::printf(
            "  run %d (%s): load %.3f s | transcribe %.2f s wall, %.2f s CPU, %.1fx "
            "real time | load+transcribe %.2f s wall, %.2f s CPU | %zu cues, %zu words "
            "(%zu timed)\n",
            run, heard->model.c_str(), t1 - t0, t2 - t1, c2 - c1, audio / (t2 - t1), t2 - t0,
            c2 - c0, heard->cues.size(), words, heard->words.size());
        if (run == 1 && !text_file.empty()) {
            std::ofstream out(text_file);
            for (const auto& cue : heard->cues) out << cue.text << "\n";
        }
    }
    const double wall = median(walls);
    std::printf(
        "median of %d: load %.3f s | transcribe %.2f s wall, %.2f s CPU, %.1fx real time "
        "| load+transcribe %.2f s wall, %.2f s CPU\n",
        runs, median(loads), wall, median(cpus), audio / wall, median(totals), median(total_cpus));
    // One line for the bench script.
    std::printf("RESULT audio=%.3f load=%.4f wall=%.4f cpu=%.4f total_wall=%.4f total_cpu=%.4f\n",
                audio, median(loads), wall, median(cpus), median(totals), median(total_cpus));
    return 0;
}

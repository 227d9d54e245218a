// Acceptance test of the conversations plugin (issue 18, docs/conversations.md) over REST
// against the real server with build/plugins/conversations.so: whisper.cpp with the converted
// models for audio turns, the server's encoder and knowledge search, real Postgres.
//
// - Lifecycle refusals: a turn before consent (409 consent_required), after a decline (400
//   consent_declined), a blank turn (422), finish without a participant turn (409 no_turns),
//   approve without confirm (409 confirmation_required) and twice (409 already_approved).
// - An audio turn made from the shared JFK clip (../shared/datasets/speech-jfk) is transcribed
//   with the reference sentence's content words.
// - Bangla (bn-BD, and bn → bn-BD), Hindi, Spanish and Arabic sessions greet and prompt in the
//   session's language.
// - Access: a workspace's owner, editor and viewer, a user of another workspace, another user
//   for a personal session; no 5xx, 404 bodies that leak nothing.
// - Limits of audio turns: 413 over 15 MB, 415 for a non-audio file, 422 without `audio`.
// - Publication and deletion: the approved transcript is an embedded call_transcript document
//   (one chunk a speaker line) that knowledge search finds; DELETE removes it and its hits.
// - Custom templates belong to a workspace: editors add them, a session asks their fields.

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <thread>

#include "support/test_server.h"

namespace docintel::test {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

const std::string kBase = "/api/v1/conversations";

std::string jfkDir() { return sharedDir() + "/datasets/speech-jfk/"; }

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

/// The code points of a UTF-8 string (invalid bytes count as U+FFFD).
std::vector<char32_t> codePoints(const std::string& s) {
    std::vector<char32_t> out;
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        int n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (n == 0 || i + n > s.size()) {
            out.push_back(0xFFFD);
            ++i;
            continue;
        }
        char32_t cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
        for (int k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
        out.push_back(cp);
        i += n;
    }
    return out;
}

/// True when `text` is written in the script [lo, hi]: at least 10 of its code points are in
/// the block and Latin letters are at most a tenth of them (an e-mail word may remain).
bool inScript(const std::string& text, char32_t lo, char32_t hi) {
    int script = 0;
    int latin = 0;
    for (char32_t cp : codePoints(text)) {
        if (cp >= lo && cp <= hi) ++script;
        if ((cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z')) ++latin;
    }
    return script >= 10 && latin * 10 <= script;
}

/// A multipart/form-data body: text fields, then (when `filename` is set) the `file_field` part.
struct Multipart {
    std::string content_type;
    std::string body;
};
Multipart multipart(const std::vector<std::pair<std::string, std::string>>& fields,
                    const std::string& file_field, const std::string& filename,
                    const std::string& file_type, const std::string& bytes) {
    const std::string boundary = "----docintelConversationsTestBoundary7MA4YWxkTrZu0gW";
    std::string body;
    for (const auto& [name, value] : fields) {
        body += "--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + name +
                "\"\r\n\r\n" + value + "\r\n";
    }
    if (!filename.empty()) {
        body += "--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + file_field +
                "\"; filename=\"" + filename + "\"\r\nContent-Type: " + file_type + "\r\n\r\n";
        body += bytes;
        body += "\r\n";
    }
    body += "--" + boundary + "--\r\n";
    return {"multipart/form-data; boundary=" + boundary, std::move(body)};
}

class Conversations : public ::testing::Test {
  protected:
    struct Actor {
        std::string id;
        std::string email;
        std::string token;
    };

    static void SetUpTestSuite() {
        ASSERT_TRUE(fs::exists(builtPlugin("conversations")))
            << builtPlugin("conversations") << " is not built";
        setenv("DOCINTEL_MODELS_DIR", modelsDir().c_str(), 1);
        TestServer::Options options;
        options.plugins = {builtPlugin("conversations")};
        server_ = new TestServer(options);
        owner_ = actor("owner@conversations.example");
        editor_ = actor("editor@conversations.example");
        viewer_ = actor("viewer@conversations.example");
        outsider_ = actor("outsider@conversations.example");
        stranger_ = actor("stranger@conversations.example");

        auto r = call("POST", "/api/v1/workspaces", {{"name", "Conversations team"}}, owner_);
        ASSERT_EQ(r.status, 201) << r.body;
        ws_ = r.json().value("id", "");
        for (const auto& [who, role] :
             {std::pair{&editor_, "editor"}, std::pair{&viewer_, "viewer"}}) {
            r = call("POST", "/api/v1/workspaces/" + ws_ + "/members",
                     {{"email", who->email}, {"role", role}}, owner_);
            ASSERT_EQ(r.status, 201) << r.body;
        }
        r = call("POST", "/api/v1/workspaces", {{"name", "Elsewhere"}}, outsider_);
        ASSERT_EQ(r.status, 201) << r.body;
        other_ws_ = r.json().value("id", "");
    }
    static void TearDownTestSuite() {
        delete server_;
        server_ = nullptr;
    }

    static Actor actor(const std::string& email) {
        Actor a;
        a.email = email;
        a.id = server_->createUser(email);
        a.token = server_->token(a.id, TestServer::allScopes(), 3600);
        return a;
    }

    /// A JSON request as `as` (in workspace `ws` when set); never a 5xx.
    static Response call(const std::string& method, const std::string& path,
                         const json& body = nullptr, const Actor& as = owner_,
                         const std::string& ws = {}) {
        std::map<std::string, std::string> headers;
        if (!ws.empty()) headers["X-DocIntel-Workspace-ID"] = ws;
        const auto r = server_->request(method, path, body.is_null() ? std::string() : body.dump(),
                                        as.token, headers);
        EXPECT_LT(r.status, 500) << method << " " << path << ": " << r.body;
        return r;
    }

    static Response audioTurn(const std::string& id, const Multipart& form,
                              const Actor& as = owner_) {
        const auto r = server_->request("POST", kBase + "/" + id + "/audio-turns", form.body,
                                        as.token, {{"Content-Type", form.content_type}});
        EXPECT_LT(r.status, 500) << "audio turn: " << r.body;
        return r;
    }

    static std::string code(const Response& r) {
        const json j = json::parse(r.body, nullptr, false);
        return j.is_object() ? j.value("code", "") : "";
    }

    /// Starts a session and returns its JSON (201).
    static json start(json body, const Actor& as = owner_, const std::string& ws = {}) {
        const auto r = call("POST", kBase, body, as, ws);
        EXPECT_EQ(r.status, 201) << r.body;
        return r.json();
    }
    /// Confirms consent; returns the greeting.
    static std::string consent(const std::string& id, const Actor& as = owner_) {
        const auto r = call("POST", kBase + "/" + id + "/consent", {{"confirmed", true}}, as);
        EXPECT_EQ(r.status, 200) << r.body;
        const json j = r.json();
        EXPECT_EQ(j.value("consent_status", ""), "confirmed") << r.body;
        return j.contains("assistant") ? j["assistant"].value("response", "") : "";
    }
    static json turn(const std::string& id, const std::string& text, const Actor& as = owner_) {
        const auto r = call("POST", kBase + "/" + id + "/turns", {{"transcript", text}}, as);
        EXPECT_EQ(r.status, 200) << r.body;
        return r.json();
    }
    /// Polls GET until processing_status is completed or error (180 s at most).
    static json waitPublished(const std::string& id, const Actor& as = owner_) {
        json s;
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(180);
        while (std::chrono::steady_clock::now() < deadline) {
            s = call("GET", kBase + "/" + id, nullptr, as).json();
            const std::string status = s.value("processing_status", "");
            if (status == "completed" || status == "error") break;
            std::this_thread::sleep_for(std::chrono::milliseconds(250));
        }
        return s;
    }
    /// The document ids of the sources a grounded query in `ws` ranks for `question`.
    static std::vector<std::string> sourcesFor(const std::string& question, const std::string& ws) {
        // No document_ids: the whole workspace is searched.
        const auto r = call("POST", "/api/v1/knowledge/query/stream",
                            {{"question", question}, {"document_ids", json::array()}}, owner_, ws);
        EXPECT_EQ(r.status, 200) << r.body;
        std::vector<std::string> ids;
        if (r.status != 200) return ids;
        for (const auto& f : sseFrames(r.body)) {
            for (const auto& source : f.value("sources", json::array())) {
                ids.push_back(source.value("document_id", ""));
            }
            for (const auto& c : f.value("citations", json::array())) {
                ids.push_back(c.value("document_id", ""));
            }
        }
        return ids;
    }

    static inline TestServer* server_ = nullptr;
    static inline Actor owner_, editor_, viewer_, outsider_, stranger_;
    static inline std::string ws_, other_ws_;
};

TEST_F(Conversations, StartConsentAndLifecycleRefusals) {
    const json s = start({{"template_id", "customer-intake"}, {"title", "Intake call"}});
    EXPECT_EQ(s.value("status", ""), "awaiting_consent");
    EXPECT_EQ(s.value("consent_status", ""), "pending");
    EXPECT_EQ(s.value("processing_status", ""), "active");
    EXPECT_EQ(s.value("language_code", ""), "en-US");
    EXPECT_EQ(s.value("template_id", ""), "customer-intake");
    EXPECT_EQ(s.value("title", ""), "Intake call");
    EXPECT_TRUE(s["workspace_id"].is_null()) << s.dump();
    EXPECT_FALSE(s.value("published", true));
    EXPECT_TRUE(s["editable_transcript"].is_null());
    EXPECT_FALSE(s.value("document_id", "").empty());
    std::map<std::string, bool> fields;
    for (const auto& f : s["template"]["fields"]) fields[f["key"]] = f.value("required", false);
    EXPECT_EQ(fields, (std::map<std::string, bool>{{"participant_name", true},
                                                   {"request_summary", true},
                                                   {"urgency", false},
                                                   {"preferred_follow_up", true}}));
    const std::string id = s["session_id"];

    // Nothing is recorded before consent.
    auto r = call("POST", kBase + "/" + id + "/turns", {{"transcript", "Hello there."}});
    EXPECT_EQ(r.status, 409) << r.body;
    EXPECT_EQ(code(r), "consent_required");
    r = call("POST", kBase + "/" + id + "/finish");
    EXPECT_EQ(r.status, 409) << r.body;
    EXPECT_EQ(code(r), "consent_required");

    const std::string greeting = consent(id);
    EXPECT_NE(greeting.find("May I have your name"), std::string::npos) << greeting;
    json got = call("GET", kBase + "/" + id).json();
    ASSERT_FALSE(got["turns"].empty()) << got.dump();
    EXPECT_EQ(got["turns"][0].value("sequence", -1), 0);
    EXPECT_EQ(got["turns"][0].value("role", ""), "assistant");
    EXPECT_EQ(got["turns"][0].value("transcript", ""), greeting);
    EXPECT_EQ(got.value("progress_pct", 0), 5);

    // Finishing needs a participant turn; a blank turn is no turn.
    r = call("POST", kBase + "/" + id + "/finish");
    EXPECT_EQ(r.status, 409) << r.body;
    EXPECT_EQ(code(r), "no_turns");
    r = call("POST", kBase + "/" + id + "/turns", {{"transcript", "   "}});
    EXPECT_EQ(r.status, 422) << r.body;

    const json t = turn(id, "Hi, my name is Priya Sharma.");
    EXPECT_EQ(t["assistant"]["collected_fields"].value("participant_name", ""), "Priya Sharma")
        << t.dump();
    EXPECT_EQ(t["assistant"].value("next_question_field", ""), "request_summary");

    r = call("POST", kBase + "/" + id + "/finish");
    ASSERT_EQ(r.status, 200) << r.body;
    got = r.json();
    EXPECT_EQ(got.value("processing_status", ""), "in_review");
    ASSERT_TRUE(got["editable_transcript"].is_string()) << r.body;
    const std::string transcript = got["editable_transcript"];
    EXPECT_NE(transcript.find("Assistant: "), std::string::npos) << transcript;
    EXPECT_NE(transcript.find(": Hi, my name is Priya Sharma."), std::string::npos) << transcript;

    // Turns end with the conversation.
    r = call("POST", kBase + "/" + id + "/turns", {{"transcript", "One more thing."}});
    EXPECT_EQ(r.status, 409) << r.body;

    // Approval needs an explicit confirmation, and happens once.
    r = call("POST", kBase + "/" + id + "/approve", {{"confirm", false}});
    EXPECT_EQ(r.status, 409) << r.body;
    EXPECT_EQ(code(r), "confirmation_required");
    // A missing `confirm` is the same refusal as confirm: false.
    r = call("POST", kBase + "/" + id + "/approve", json::object());
    EXPECT_EQ(r.status, 409) << r.body;
    EXPECT_EQ(code(r), "confirmation_required");
    EXPECT_EQ(call("GET", kBase + "/" + id).json().value("processing_status", ""), "in_review");
    r = call("POST", kBase + "/" + id + "/approve", {{"confirm", true}});
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.json().value("review_status", ""), "approved");
    r = call("POST", kBase + "/" + id + "/approve", {{"confirm", true}});
    EXPECT_EQ(r.status, 409) << r.body;
    EXPECT_EQ(code(r), "already_approved");

    // A declined session takes nothing.
    const std::string declined = start({{"template_id", "customer-intake"}})["session_id"];
    r = call("POST", kBase + "/" + declined + "/consent", {{"confirmed", false}});
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.json().value("consent_status", ""), "declined");
    r = call("POST", kBase + "/" + declined + "/turns", {{"transcript", "Hello."}});
    EXPECT_EQ(r.status, 400) << r.body;
    EXPECT_EQ(code(r), "consent_declined");

    // Unknown template and language.
    r = call("POST", kBase, {{"template_id", "no-such-template"}});
    EXPECT_EQ(r.status, 404) << r.body;
    r = call("POST", kBase, {{"language_code", "xx-YY"}});
    ASSERT_EQ(r.status, 422) << r.body;
    const json detail = r.json()["detail"];  // the validator's shape, the rule's code as type
    ASSERT_TRUE(detail.is_array() && detail.size() == 1) << r.body;
    EXPECT_EQ(detail[0]["loc"], json({"body", "language_code"})) << r.body;
    EXPECT_EQ(detail[0].value("type", ""), "unsupported_language") << r.body;
}

TEST_F(Conversations, AudioTurnIsTranscribed) {
    const std::string wav = readFile(jfkDir() + "jfk-16k-mono.wav");
    ASSERT_GT(wav.size(), 100000u) << jfkDir();
    const std::string id = start({{"template_id", "general-guided-conversation"}})["session_id"];

    // Before consent the recording is refused (and not transcribed).
    auto r = audioTurn(id, multipart({}, "audio", "jfk.wav", "audio/wav", wav));
    EXPECT_EQ(r.status, 409) << r.body;
    EXPECT_EQ(code(r), "consent_required");

    consent(id);
    r = audioTurn(id, multipart({{"speaker", "President"}}, "audio", "jfk.wav", "audio/wav", wav));
    ASSERT_EQ(r.status, 200) << r.body;
    const json j = r.json();
    EXPECT_EQ(j.value("source", ""), "audio");
    const std::string heard = lower(j.value("user_transcript", ""));
    int found = 0;
    for (const char* word : {"fellow", "americans", "ask", "country"}) {
        found += heard.find(word) != std::string::npos ? 1 : 0;
    }
    EXPECT_GE(found, 3) << "reference: \"And so my fellow Americans, ask not what your country "
                           "can do for you...\"; heard: "
                        << heard;
    ASSERT_TRUE(j.contains("transcription")) << r.body;
    EXPECT_FALSE(j["transcription"].value("model", "").empty()) << r.body;
    EXPECT_EQ(j["transcription"].value("language", ""), "en") << r.body;
    EXPECT_NEAR(j["transcription"].value("duration_seconds", 0.0), 11.0, 0.5) << r.body;
    ASSERT_TRUE(j.contains("assistant")) << r.body;
    EXPECT_FALSE(j["assistant"].value("response", "").empty());

    const json got = call("GET", kBase + "/" + id).json();
    bool audio_turn = false;
    for (const auto& t : got["turns"]) {
        if (t.value("role", "") == "user") {
            audio_turn = t.value("source", "") == "audio" &&
                         lower(t.value("transcript", "")).find("country") != std::string::npos;
            EXPECT_EQ(t.value("speaker", ""), "President") << t.dump();
        }
    }
    EXPECT_TRUE(audio_turn) << got["turns"].dump();
}

TEST_F(Conversations, GreetingAndPromptsInTheSessionLanguage) {
    // The English texts, to tell a translation from a fallback.
    const std::string en_id = start({{"template_id", "customer-intake"}})["session_id"];
    const std::string en_greeting = consent(en_id);
    const std::string en_prompt =
        turn(en_id, "My name is Sam Carter.")["assistant"].value("response", "");
    ASSERT_FALSE(en_prompt.empty());

    struct Case {
        std::string code;
        std::string canonical;
        std::string answer;
        char32_t lo, hi;  // the script's block; 0 = Spanish (Latin)
    };
    const std::vector<Case> cases = {
        {"bn-BD", "bn-BD", "আমার নাম রাহেলা খাতুন।", 0x0980, 0x09FF},
        {"bn", "bn-BD", "আমার নাম সুমন দাস।", 0x0980, 0x09FF},
        {"hi-IN", "hi-IN", "मेरा नाम अनीता शर्मा है।", 0x0900, 0x097F},
        {"ar-SA", "ar-SA", "اسمي ليلى حسن.", 0x0600, 0x06FF},
        {"es-ES", "es-ES", "Me llamo Lucía Fernández.", 0, 0},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.code);
        const json s = start({{"template_id", "customer-intake"}, {"language_code", c.code}});
        EXPECT_EQ(s.value("language_code", ""), c.canonical);
        const std::string id = s["session_id"];
        const std::string greeting = consent(id);
        const json t = turn(id, c.answer);
        const std::string prompt = t["assistant"].value("response", "");
        EXPECT_EQ(t["assistant"].value("next_question_field", ""), "request_summary") << t.dump();
        EXPECT_TRUE(t["assistant"]["collected_fields"].contains("participant_name")) << t.dump();
        EXPECT_NE(greeting, en_greeting);
        EXPECT_NE(prompt, en_prompt);
        if (c.lo != 0) {
            EXPECT_TRUE(inScript(greeting, c.lo, c.hi)) << greeting;
            EXPECT_TRUE(inScript(prompt, c.lo, c.hi)) << prompt;
        } else {
            // Spanish: inverted question marks and Spanish words.
            EXPECT_NE(greeting.find("¿"), std::string::npos) << greeting;
            const std::string g = lower(greeting);
            EXPECT_TRUE(g.find("por favor") != std::string::npos ||
                        g.find("usted") != std::string::npos ||
                        g.find("gracias") != std::string::npos)
                << greeting;
            EXPECT_NE(prompt.find("¿"), std::string::npos) << prompt;
            const std::string p = lower(prompt);
            EXPECT_TRUE(
                p.find("por favor") != std::string::npos || p.find("usted") != std::string::npos ||
                p.find("ayudarle") != std::string::npos || p.find("solicitud") != std::string::npos)
                << prompt;
        }
        // The greeting is the first turn of the session.
        const json got = call("GET", kBase + "/" + id).json();
        ASSERT_FALSE(got["turns"].empty());
        EXPECT_EQ(got["turns"][0].value("transcript", ""), greeting);
    }
}

TEST_F(Conversations, AccessByRoleWithoutLeaks) {
    const std::string title = "Marigold escalation";
    const std::string said = "Hi, my name is Quillon Marsh.";
    const json s = start({{"template_id", "customer-intake"}, {"title", title}}, owner_, ws_);
    EXPECT_EQ(s.value("workspace_id", ""), ws_);
    const std::string id = s["session_id"];
    consent(id);
    turn(id, said);
    const std::string wav = readFile(jfkDir() + "jfk-16k-mono.wav");
    const auto path = [&](const std::string& rest) { return kBase + "/" + id + rest; };

    // Nobody outside the workspace learns anything: 404, without the title or the words.
    const auto expectHidden = [&](const Response& r, const std::string& what) {
        EXPECT_EQ(r.status, 404) << what << ": " << r.body;
        EXPECT_EQ(r.body.find("Marigold"), std::string::npos) << what << ": " << r.body;
        EXPECT_EQ(r.body.find("Quillon"), std::string::npos) << what << ": " << r.body;
    };
    const auto everything = [&](const Actor& who, const std::string& ws) {
        std::vector<std::pair<std::string, Response>> out;
        out.push_back({"GET", call("GET", path(""), nullptr, who, ws)});
        out.push_back({"GET transcript", call("GET", path("/transcript"), nullptr, who, ws)});
        out.push_back({"consent", call("POST", path("/consent"), {{"confirmed", true}}, who, ws)});
        out.push_back({"turn", call("POST", path("/turns"), {{"transcript", "I am someone else."}},
                                    who, ws)});
        out.push_back({"audio turn",
                       audioTurn(id, multipart({}, "audio", "jfk.wav", "audio/wav", wav), who)});
        out.push_back({"finish", call("POST", path("/finish"), nullptr, who, ws)});
        out.push_back({"approve", call("POST", path("/approve"), {{"confirm", true}}, who, ws)});
        out.push_back({"DELETE", call("DELETE", path(""), nullptr, who, ws)});
        return out;
    };
    for (const auto& [what, r] : everything(outsider_, {})) expectHidden(r, "outsider " + what);
    for (const auto& [what, r] : everything(outsider_, other_ws_)) {
        expectHidden(r, "outsider in own workspace " + what);
    }
    // Not in the outsider's list, whichever scope it asks for.
    for (const std::string& ws : {std::string(), other_ws_}) {
        const auto listed = call("GET", kBase, nullptr, outsider_, ws);
        EXPECT_EQ(listed.status, 200) << listed.body;
        EXPECT_EQ(listed.body.find(id), std::string::npos) << listed.body;
        EXPECT_EQ(listed.body.find("Marigold"), std::string::npos) << listed.body;
    }
    auto r = call("GET", kBase, nullptr, outsider_, ws_);
    EXPECT_GE(r.status, 400) << r.body;
    EXPECT_EQ(r.body.find("Marigold"), std::string::npos) << r.body;
    r = call("POST", kBase, {{"template_id", "customer-intake"}}, outsider_, ws_);
    EXPECT_TRUE(r.status == 403 || r.status == 404) << r.body;

    // The viewer reads but changes nothing.
    r = call("GET", path(""), nullptr, viewer_);
    EXPECT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.json().value("title", ""), title);
    EXPECT_EQ(call("GET", path("/transcript"), nullptr, viewer_).status, 200);
    r = call("GET", kBase, nullptr, viewer_, ws_);
    EXPECT_EQ(r.status, 200) << r.body;
    EXPECT_NE(r.body.find(id), std::string::npos) << r.body;
    const int turns_before = call("GET", path("")).json().value("turn_count", 0);
    for (const auto& [what, resp] : everything(viewer_, ws_)) {
        if (what.rfind("GET", 0) == 0) {
            EXPECT_EQ(resp.status, 200) << "viewer " << what << ": " << resp.body;
        } else {
            // A viewer is refused whatever the session's state (the role before the state).
            EXPECT_EQ(resp.status, 403) << "viewer " << what << ": " << resp.body;
        }
    }
    r = call("POST", kBase, {{"template_id", "customer-intake"}}, viewer_, ws_);
    EXPECT_EQ(r.status, 403) << r.body;
    json got = call("GET", path("")).json();
    EXPECT_EQ(got.value("turn_count", -1), turns_before) << got.dump();
    EXPECT_EQ(got.value("processing_status", ""), "active");

    // The editor changes it: a turn, then finish; the owner approves.
    r = call("POST", path("/turns"),
             {{"transcript", "I need help moving my pension to a new provider."}}, editor_);
    EXPECT_EQ(r.status, 200) << r.body;
    r = call("POST", path("/finish"), nullptr, editor_);
    EXPECT_EQ(r.status, 200) << r.body;
    r = call("POST", path("/approve"), {{"confirm", true}}, viewer_);
    EXPECT_EQ(r.status, 403) << r.body;
    r = call("POST", path("/approve"), {{"confirm", true}}, owner_);
    EXPECT_EQ(r.status, 200) << r.body;
    for (const auto& [what, resp] : everything(outsider_, {})) {
        expectHidden(resp, "outsider after approval " + what);
    }

    // A personal session is its owner's alone, workspace colleagues included.
    const json mine = start({{"title", "Marigold personal notes"}});
    const std::string pid = mine["session_id"];
    consent(pid);
    turn(pid, "Quillon Marsh speaking, I have information about the roof repair.");
    const auto personal = [&](const Actor& who) {
        std::vector<std::pair<std::string, Response>> out;
        const std::string p = kBase + "/" + pid;
        out.push_back({"GET", call("GET", p, nullptr, who)});
        out.push_back({"GET transcript", call("GET", p + "/transcript", nullptr, who)});
        out.push_back({"consent", call("POST", p + "/consent", {{"confirmed", true}}, who)});
        out.push_back({"turn", call("POST", p + "/turns", {{"transcript", "Hello."}}, who)});
        out.push_back({"finish", call("POST", p + "/finish", nullptr, who)});
        out.push_back({"approve", call("POST", p + "/approve", {{"confirm", true}}, who)});
        out.push_back({"DELETE", call("DELETE", p, nullptr, who)});
        return out;
    };
    for (const Actor* who : {&stranger_, &editor_, &viewer_}) {
        for (const auto& [what, resp] : personal(*who)) {
            expectHidden(resp, who->email + " on a personal session: " + what);
        }
        const auto listed = call("GET", kBase, nullptr, *who);
        EXPECT_EQ(listed.body.find(pid), std::string::npos) << listed.body;
    }
    EXPECT_EQ(call("GET", kBase + "/" + pid).status, 200);  // still there for its owner
    EXPECT_EQ(call("GET", kBase + "/" + pid).json().value("turn_count", 0),
              mine.value("turn_count", 0) + 3);  // greeting, the turn and its prompt only

    // Unknown ids.
    EXPECT_EQ(call("GET", kBase + "/00000000-0000-4000-8000-000000000000").status, 404);
    EXPECT_EQ(call("GET", kBase + "/not-a-uuid").status / 100, 4);

    // The owner deletes the workspace session once published (a viewer could not).
    EXPECT_EQ(waitPublished(id).value("processing_status", ""), "completed");
    r = call("DELETE", path(""), nullptr, viewer_);
    EXPECT_EQ(r.status, 403) << r.body;
    r = call("DELETE", path(""), nullptr, owner_);
    EXPECT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(call("GET", path(""), nullptr, viewer_).status, 404);
}

TEST_F(Conversations, AudioLimits) {
    const std::string id = start({{"template_id", "customer-intake"}})["session_id"];
    consent(id);
    // Just over 15 MB.
    const std::string big(15 * 1024 * 1024 + 1024, '\0');
    auto r = audioTurn(id, multipart({}, "audio", "big.wav", "audio/wav", big));
    EXPECT_EQ(r.status, 413) << r.body.substr(0, 500);
    EXPECT_EQ(code(r), "file_too_large");
    r = audioTurn(id, multipart({}, "audio", "x.txt", "text/plain", "just some text\n"));
    EXPECT_EQ(r.status, 415) << r.body;
    r = audioTurn(id, multipart({{"speaker", "Somebody"}}, "", "", "", ""));
    EXPECT_EQ(r.status, 422) << r.body;
    // Not multipart at all.
    r = call("POST", kBase + "/" + id + "/audio-turns", {{"audio", "abc"}});
    EXPECT_EQ(r.status / 100, 4) << r.body;
    // Nothing was recorded by the refusals.
    const json got = call("GET", kBase + "/" + id).json();
    EXPECT_EQ(got.value("turn_count", -1), 1) << got.dump();  // the greeting
}

TEST_F(Conversations, PublishedTranscriptIsSearchableUntilDeleted) {
    const json s = start(
        {{"template_id", "customer-intake"}, {"title", "Pension transfer"}, {"redact_pii", false}},
        owner_, ws_);
    const std::string id = s["session_id"];
    const std::string doc = s["document_id"];
    consent(id);
    json t = turn(id, "Hi, my name is Priya Sharma.");
    EXPECT_EQ(t["assistant"].value("next_question_field", ""), "request_summary");
    t = turn(id,
             "I need help moving my pension from Thistlebrook Mutual to a new provider before "
             "March.");
    EXPECT_EQ(t["assistant"].value("next_question_field", ""), "preferred_follow_up");
    t = turn(id, "Please email me at priya@example.com.");
    EXPECT_TRUE(t["assistant"]["missing_required_fields"].empty()) << t.dump();
    EXPECT_TRUE(t["assistant"].value("ready_to_finish", false)) << t.dump();

    auto r = call("POST", kBase + "/" + id + "/finish");
    ASSERT_EQ(r.status, 200) << r.body;
    r = call("POST", kBase + "/" + id + "/approve", {{"confirm", true}});
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.json().value("processing_status", ""), "received") << r.body;
    const json done = waitPublished(id);
    ASSERT_EQ(done.value("processing_status", ""), "completed") << done.dump();
    EXPECT_TRUE(done.value("published", false));
    EXPECT_EQ(done.value("progress_pct", 0), 100);
    EXPECT_TRUE(done["summary"].is_object() && !done["summary"].empty()) << done.dump();
    // The summary holds the collected fields.
    EXPECT_EQ(done["summary"]["collected_fields"]["participant_name"].value("value", ""),
              "Priya Sharma")
        << done["summary"].dump();

    // The session's events, in its workspace: started … approved (with the document).
    const json events = call("GET", "/api/v1/events?resource_type=conversation&resource_id=" + id,
                             nullptr, owner_, ws_)
                            .json();
    std::vector<std::string> types;
    for (const auto& e : events.value("events", json::array())) {
        types.push_back(e.value("event_type", ""));
        if (e.value("event_type", "") == "conversation.approved") {
            EXPECT_EQ(e["payload"].value("document_id", ""), doc) << e.dump();
        }
    }
    for (const char* type : {"conversation.started", "conversation.consent.confirmed",
                             "conversation.finished", "conversation.approved"}) {
        EXPECT_NE(std::find(types.begin(), types.end(), type), types.end())
            << type << " not in " << json(types).dump();
    }

    const json transcript = call("GET", kBase + "/" + id + "/transcript").json();
    EXPECT_TRUE(transcript.value("approved", false));
    EXPECT_EQ(transcript.value("document_id", ""), doc);
    const std::string text = transcript.value("transcript", "");
    EXPECT_NE(text.find("Thistlebrook"), std::string::npos) << text;
    std::size_t lines = 0;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines += line.empty() ? 0 : 1;
    EXPECT_EQ(lines, 7u) << text;  // greeting, three turns, three prompts

    const auto document = call("GET", "/api/v1/documents/" + doc, nullptr, owner_, ws_);
    ASSERT_EQ(document.status, 200) << document.body;
    EXPECT_EQ(document.json().value("status", ""), "embedded") << document.body;
    EXPECT_EQ(document.json().value("doc_type", ""), "call_transcript") << document.body;
    const auto chunks = call("GET", "/api/v1/documents/" + doc + "/chunks", nullptr, owner_, ws_);
    ASSERT_EQ(chunks.status, 200) << chunks.body;
    EXPECT_EQ(chunks.json()["chunks"].size(), lines) << chunks.body.substr(0, 2000);

    // The workspace's knowledge search finds the transcript (shortly after it is embedded).
    std::vector<std::string> ids;
    const bool found = eventually(
        [&] {
            ids = sourcesFor("Which provider is Thistlebrook Mutual pension moving from?", ws_);
            return std::find(ids.begin(), ids.end(), doc) != ids.end();
        },
        20);
    EXPECT_TRUE(found) << "sources: " << json(ids).dump();
    // The answers kept traces that cite the transcript, with its words.
    const std::string cites =
        "SELECT count(*) FROM answer_traces WHERE sources::text LIKE '%" + doc + "%'";
    EXPECT_NE(server_->db().scalar(cites), "0");

    r = call("DELETE", kBase + "/" + id);
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_TRUE(r.json().value("deleted", false));
    EXPECT_EQ(call("GET", "/api/v1/documents/" + doc, nullptr, owner_, ws_).status, 404);
    EXPECT_EQ(call("GET", "/api/v1/documents/" + doc + "/chunks", nullptr, owner_, ws_).status,
              404);
    EXPECT_EQ(call("GET", kBase + "/" + id).status, 404);
    ids = sourcesFor("Which provider is Thistlebrook Mutual pension moving from?", ws_);
    EXPECT_EQ(std::find(ids.begin(), ids.end(), doc), ids.end()) << json(ids).dump();
    const auto listed = call("GET", kBase, nullptr, owner_, ws_);
    EXPECT_EQ(listed.body.find(id), std::string::npos) << listed.body;
    // Traces that cited it keep no text of it: not its id, not its words.
    EXPECT_EQ(server_->db().scalar(cites), "0");
    const std::string kept =
        "SELECT count(*) FROM answer_traces WHERE document_ids::text LIKE '%" + doc +
        "%' OR candidates::text LIKE '%" + doc +
        "%' OR sources::text LIKE '%Thistlebrook%' "
        "OR answer LIKE '%Thistlebrook%' OR sentences::text LIKE '%Thistlebrook%'";
    EXPECT_EQ(server_->db().scalar(kept), "0");
}

// A question asked in a turn is answered from the workspace's documents with citations, and a
// session that redacts publishes its transcript without the participant's contact details.
TEST_F(Conversations, QuestionsAreAnsweredFromDocumentsAndPublicationIsRedacted) {
    // A workspace of its own: the other tests' published transcripts are not its documents.
    auto created = call("POST", "/api/v1/workspaces", {{"name", "Pension desk"}}, owner_);
    ASSERT_EQ(created.status, 201) << created.body;
    const std::string desk = created.json().value("id", "");
    const std::string policy = server_->uploadDocument(
        owner_.token, "transfer-policy.txt", "text/plain",
        "Pension transfer policy\n\nThe signed transfer form must reach the Harrowgate office by "
        "14 March 2027. Transfers are completed within twenty working days of the form "
        "arriving.\n",
        desk);
    ASSERT_EQ(server_->waitForDocument(policy, owner_.token).value("status", ""), "embedded");
    const std::string question = "By when must the signed transfer form reach the office?";
    // Embedded is in Postgres; the node's search index follows the change feed shortly after.
    ASSERT_TRUE(eventually(
        [&] {
            const auto ids = sourcesFor(question, desk);
            return std::find(ids.begin(), ids.end(), policy) != ids.end();
        },
        20));

    const json s = start({{"template_id", "customer-intake"}}, owner_, desk);
    const std::string id = s["session_id"];
    const std::string doc = s["document_id"];
    EXPECT_TRUE(s.value("redact_pii", false)) << s.dump();  // the default
    consent(id);
    json t = turn(id, "Hi, my name is Priya Sharma.");
    const std::string asked = t["assistant"].value("next_question_field", "");
    t = turn(id, question);
    EXPECT_TRUE(t["assistant"].value("answered_from_knowledgebase", false)) << t.dump();
    bool cites_policy = false;
    for (const auto& c : t["assistant"]["citations"]) {
        cites_policy = cites_policy || c.value("document_id", "") == policy;
    }
    EXPECT_TRUE(cites_policy) << t.dump();
    EXPECT_NE(t["assistant"].value("response", "").find("2027"), std::string::npos) << t.dump();
    // A question answers no field: the same field is asked again.
    EXPECT_EQ(t["assistant"].value("next_question_field", ""), asked) << t.dump();

    turn(id, "I need to move my pension to a new provider.");
    turn(id, "Please email me at priya.sharma@example.com or phone me on (212) 555-0147.");
    ASSERT_EQ(call("POST", kBase + "/" + id + "/finish").status, 200);
    ASSERT_EQ(call("POST", kBase + "/" + id + "/approve", {{"confirm", true}}).status, 200);
    ASSERT_EQ(waitPublished(id).value("processing_status", ""), "completed");

    const auto chunks = call("GET", "/api/v1/documents/" + doc + "/chunks", nullptr, owner_, desk);
    ASSERT_EQ(chunks.status, 200) << chunks.body;
    EXPECT_EQ(chunks.body.find("priya.sharma@example.com"), std::string::npos) << chunks.body;
    EXPECT_EQ(chunks.body.find("555-0147"), std::string::npos) << chunks.body;
    EXPECT_NE(chunks.body.find("[EMAIL_1]"), std::string::npos) << chunks.body;
    const json transcript = call("GET", kBase + "/" + id + "/transcript").json();
    EXPECT_TRUE(transcript.value("approved", false));
}

TEST_F(Conversations, CustomTemplatesPerWorkspace) {
    const json tmpl = {{"name", "Site visit"},
                       {"fields",
                        {{{"key", "site_name"}, {"label", "Site name"}, {"required", true}},
                         {{"key", "hazards"},
                          {"label", "Hazards"},
                          {"required", true},
                          {"question", "Which hazards did you see on site?"}}}}};
    const std::string templates = "/api/v1/conversation-templates";
    // Editors add templates; viewers and outsiders cannot; the personal scope has none.
    auto r = call("POST", templates, tmpl, viewer_, ws_);
    EXPECT_EQ(r.status, 403) << r.body;
    r = call("POST", templates, tmpl, outsider_, ws_);
    EXPECT_TRUE(r.status == 403 || r.status == 404) << r.body;
    r = call("POST", templates, tmpl, editor_);
    EXPECT_EQ(r.status, 422) << r.body;
    json duplicate = tmpl;
    duplicate["fields"][1]["key"] = "site_name";
    r = call("POST", templates, duplicate, editor_, ws_);
    EXPECT_EQ(r.status, 422) << r.body;
    EXPECT_NE(r.body.find("Duplicate field key"), std::string::npos) << r.body;
    r = call("POST", templates, tmpl, editor_, ws_);
    ASSERT_EQ(r.status, 201) << r.body;
    const std::string id = r.json().value("id", "");
    ASSERT_FALSE(id.empty()) << r.body;

    const auto listed = [&](const Actor& who, const std::string& ws) {
        const auto l = call("GET", templates, nullptr, who, ws);
        EXPECT_LT(l.status, 500);
        bool has = false;
        if (l.status == 200) {
            for (const auto& t : l.json().value("templates", json::array())) {
                has = has || t.value("id", "") == id;
            }
        }
        return has;
    };
    EXPECT_TRUE(listed(viewer_, ws_));
    EXPECT_TRUE(listed(owner_, ws_));
    EXPECT_FALSE(listed(outsider_, other_ws_));
    EXPECT_FALSE(listed(owner_, {}));

    // A session with it asks the fields in order, a custom question as written.
    const json s = start({{"template_id", id}}, editor_, ws_);
    const std::string sid = s["session_id"];
    const std::string greeting = consent(sid, editor_);
    EXPECT_NE(greeting.find("Site name"), std::string::npos) << greeting;
    const json t = turn(sid, "The north depot on Harbour Road.", editor_);
    EXPECT_EQ(t["assistant"].value("next_question_field", ""), "hazards") << t.dump();
    EXPECT_EQ(t["assistant"].value("response", ""), "Which hazards did you see on site?");
    // Not usable outside its workspace.
    r = call("POST", kBase, {{"template_id", id}}, owner_);
    EXPECT_EQ(r.status, 404) << r.body;
}

}  // namespace
}  // namespace docintel::test

// The knowledge tools of spec §4.3 — search_knowledgebase, ask, and the chat-session tools —
// and the docintel://sessions/{session_id} resource, over KnowledgeService and
// ChatSessionService (the services REST calls).

#include <utility>

#include "mcp/mcp_tools.h"

namespace docintel::mcp {
namespace {

using nlohmann::json;
using plugin::Result;
using plugin::ToolCall;
using Scopes = std::vector<std::string>;

const Scopes kQuery{"knowledge:query"};
const Scopes kSessionsWrite{"sessions:write"};
constexpr const char* kDefaultTitle = "New chat session";

std::string stringArg(const json& args, const char* name) {
    const auto it = args.find(name);
    return it != args.end() && it->is_string() ? it->get<std::string>() : std::string();
}

/// `workspace_id` of the arguments: null, absent, "" and "personal" mean the personal scope.
std::string workspaceArg(const json& args) {
    const std::string v = stringArg(args, "workspace_id");
    return v == "personal" ? std::string() : v;
}

json workspaceProperty() {
    return {{"type", {"string", "null"}},
            {"description",
             "Team workspace id; null, omitted or \"personal\" selects the caller's personal "
             "documents."}};
}

json documentIdsProperty() {
    return {{"type", "array"},
            {"items", {{"type", "string"}}},
            {"description",
             "Documents to answer from (ids from list_documents). Empty or omitted: every "
             "document of the selected workspace (or personal scope)."}};
}

json sessionIdProperty(const char* what) {
    return {{"type", "string"}, {"minLength", 1}, {"description", what}};
}

json redactProperty() {
    return {{"type", "boolean"},
            {"description",
             "Replace personal data (e-mail, phone, SSN, card, IBAN, IP, date of birth, address, "
             "MRN) in the answer and excerpts by typed placeholders such as [EMAIL_1]."}};
}

json agentModeProperty() {
    return {{"type", "string"},
            {"enum", {"auto", "off", "force"}},
            {"description",
             "Whether results of vertical workflow runs over the documents join the sources: "
             "auto (when the question names an extracted field), force (always), off."}};
}

json objectSchema(json properties, json required = json::array()) {
    return {{"type", "object"},
            {"properties", std::move(properties)},
            {"required", std::move(required)}};
}

json output(json result_schema) {
    return {{"type", "object"},
            {"properties", {{"result", std::move(result_schema)}}},
            {"required", {"result"}}};
}

json sessionOutput() {
    return output({{"type", "object"},
                   {"properties",
                    {{"session_id", {{"type", "string"}}},
                     {"title", {{"type", "string"}}},
                     {"workspace_id", {{"type", {"string", "null"}}}},
                     {"document_ids", {{"type", "array"}, {"items", {{"type", "string"}}}}}}},
                   {"required", {"session_id", "title"}}});
}

json sourcesSchema() {
    return {{"type", "array"},
            {"items",
             {{"type", "object"},
              {"properties",
               {{"source_number", {{"type", "integer"}}},
                // agent_mode's run fields: type workflow_run; document_id null when a
                // reviewer typed the value without a citation.
                {"type", {{"type", "string"}, {"enum", {"document", "workflow_run"}}}},
                {"document_id", {{"type", {"string", "null"}}}},
                {"doc_name", {{"type", "string"}}},
                {"page", {{"type", "integer"}}},
                {"excerpt", {{"type", "string"}}}}}}}};
}

template <typename F>
ToolHandler call(F&& f) {
    return
        [f = std::forward<F>(f)](const ToolCall& c, ToolContext&) -> Result<json> { return f(c); };
}

plugin::Error unavailable() {
    return plugin::Error::unavailable("search_unavailable", "this node does not answer questions");
}

/// A ChatRequest body from tool arguments.
json chatRequest(const json& args, const std::string& workspace, const json& document_ids,
                 const json& history) {
    json request = {{"question", stringArg(args, "question")},
                    {"document_ids", document_ids},
                    {"history", history},
                    {"redact_pii", args.value("redact_pii", false)}};
    if (!workspace.empty()) request["workspace_id"] = workspace;
    // agent_mode (docs/knowledge.md): off | auto (the default) | force.
    if (const auto it = args.find("agent_mode"); it != args.end() && it->is_string()) {
        request["agent_mode"] = *it;
    }
    return request;
}

json documentIdsArg(const json& args) {
    const auto it = args.find("document_ids");
    return it != args.end() && it->is_array() ? *it : json::array();
}

Result<json> ask(const McpServices& s, const ToolCall& c, ToolContext& context) {
    if (!s.knowledge || !s.chat_sessions) return unavailable();
    const json& args = c.arguments;
    std::string workspace = workspaceArg(args);
    json document_ids = documentIdsArg(args);
    json history = json::array();

    // In a session: its scope, its documents unless others are named, its turns as history.
    const std::string session_id = stringArg(args, "session_id");
    if (!session_id.empty()) {
        if (!c.principal.hasScope("sessions:write")) {
            return plugin::Error::forbidden("insufficient_scope",
                                            "asking in a chat session needs scope sessions:write");
        }
        auto session = s.chat_sessions->find(c.principal, session_id);
        if (!session) return session.error();
        workspace = session->workspace_id;
        if (document_ids.empty()) document_ids = session->document_ids;
        auto turns = s.chat_sessions->history(session_id);
        if (!turns) return turns.error();
        history = std::move(turns).value();
    }

    auto plan = s.knowledge->prepare(
        c.principal, {}, chatRequest(args, workspace, document_ids, history), c.trace_id);
    if (!plan) return plan.error();
    plan->session_id = session_id;

    json sources = json::array();
    json done;
    json failure;
    s.knowledge->answer(*plan, [&](const json& frame) {
        const std::string type = frame.value("type", "");
        if (type == "sources") {
            sources = frame["sources"];
            context.progress(1, 2, "sources ranked");
        } else if (type == "done") {
            done = frame;
        } else if (type == "error") {
            failure = frame;
        }
        return true;
    });
    if (!failure.is_null() || !done.is_object()) {
        return plugin::Error{failure.value("code", "answer_failed"),
                             failure.value("message", "the question could not be answered"), 500};
    }
    context.progress(2, 2, "answered");
    if (!session_id.empty()) {
        auto appended = s.chat_sessions->appendExchange(session_id, plan->question, done["answer"],
                                                        done["citations"], plan->trace_id);
        if (!appended) return appended.error();
    }
    json out = {{"answer", done["answer"]},
                {"citations", done["citations"]},
                {"sources", std::move(sources)},
                {"refused", done["refused"]},
                {"trace_id", done["trace_id"]},
                {"answerer", done["answerer"]},
                {"redacted", plan->redact_pii},
                {"session_id", session_id.empty() ? json() : json(session_id)}};
    if (done.contains("language_note")) out["language_note"] = done["language_note"];
    out["agent_runs"] = done.value("agent_runs", json::array());
    // LLM mode (docs/knowledge.md "LLM mode"): what the check removed, why it fell back.
    for (const char* key : {"unsupported_removed", "llm_fallback"}) {
        if (done.contains(key)) out[key] = done[key];
    }
    return out;
}

}  // namespace

std::vector<Tool> knowledgeTools(const McpServices& s) {
    std::vector<Tool> tools;

    tools.push_back(
        {.name = "search_knowledgebase",
         .title = "Search the knowledge base",
         .description =
             "Find the passages that best match a question in the caller's documents (hybrid "
             "keyword + semantic retrieval, re-ranked), without composing an answer. Each source "
             "has its document, page, character span, excerpt and scores. Use ask for a cited "
             "answer.",
         .input_schema = objectSchema(
             {{"question",
               {{"type", "string"}, {"minLength", 1}, {"description", "What to look for."}}},
              {"workspace_id", workspaceProperty()},
              {"document_ids", documentIdsProperty()},
              {"history",
               {{"type", "array"},
                {"items", {{"type", "object"}}},
                {"description",
                 "Earlier turns [{role: user|assistant, content}]; a "
                 "short follow-up borrows the last question's words."}}},
              {"redact_pii", redactProperty()},
              {"agent_mode", agentModeProperty()}},
             {"question"}),
         .output_schema = output(
             {{"type", "object"},
              {"properties", {{"question", {{"type", "string"}}}, {"sources", sourcesSchema()}}},
              {"required", {"question", "sources"}}}),
         .scopes = kQuery,
         .read_only = true,
         .handler = call([&s](const ToolCall& c) -> Result<json> {
             if (!s.knowledge) return unavailable();
             const json& args = c.arguments;
             const auto it = args.find("history");
             const json history = it != args.end() && it->is_array() ? *it : json::array();
             auto plan = s.knowledge->prepare(
                 c.principal, {},
                 chatRequest(args, workspaceArg(args), documentIdsArg(args), history), c.trace_id);
             if (!plan) return plan.error();
             return s.knowledge->search(*plan);
         })});

    tools.push_back(
        {.name = "ask",
         .title = "Ask the documents",
         .description =
             "Answer a question from the caller's documents with every sentence cited as [n] to "
             "a numbered source (document, page, character span). When the documents do not "
             "contain the answer it says so instead of guessing. With `session_id` the question "
             "joins that chat session: earlier turns give follow-ups their context, and the "
             "question and answer are appended (needs sessions:write). Returns answer, "
             "citations, sources and trace_id (for POST /api/v1/evaluations).",
         .input_schema = objectSchema(
             {{"question",
               {{"type", "string"}, {"minLength", 1}, {"description", "The question."}}},
              {"workspace_id", workspaceProperty()},
              {"document_ids", documentIdsProperty()},
              {"session_id",
               {{"type", {"string", "null"}},
                {"description",
                 "A chat session from create_chat_session; its "
                 "workspace and documents apply."}}},
              {"redact_pii", redactProperty()},
              {"agent_mode", agentModeProperty()}},
             {"question"}),
         .output_schema = output({{"type", "object"},
                                  {"properties",
                                   {{"answer", {{"type", "string"}}},
                                    {"citations", {{"type", "array"}}},
                                    {"sources", sourcesSchema()},
                                    {"refused", {{"type", "boolean"}}},
                                    {"trace_id", {{"type", "string"}}},
                                    {"session_id", {{"type", {"string", "null"}}}}}},
                                  {"required", {"answer", "citations", "sources", "trace_id"}}}),
         .scopes = kQuery,
         .read_only = false,
         .handler = [&s](const ToolCall& c, ToolContext& context) { return ask(s, c, context); }});

    tools.push_back(
        {.name = "create_chat_session",
         .title = "Create a chat session",
         .description =
             "Start a chat session: a titled conversation in the personal scope or a team "
             "workspace, optionally over selected documents. Pass its `session_id` to ask so "
             "follow-up questions keep their context.",
         .input_schema =
             objectSchema({{"title",
                            {{"type", "string"},
                             {"minLength", 1},
                             {"maxLength", 200},
                             {"description", std::string("The session's title (default \"") +
                                                 kDefaultTitle + "\")."}}},
                           {"workspace_id", workspaceProperty()},
                           {"document_ids", documentIdsProperty()}}),
         .output_schema = sessionOutput(),
         .scopes = kSessionsWrite,
         .handler = call([&s](const ToolCall& c) -> Result<json> {
             if (!s.chat_sessions) return unavailable();
             json args = c.arguments;
             if (!args.contains("title") || args["title"].is_null()) args["title"] = kDefaultTitle;
             if (args.contains("workspace_id")) args["workspace_id"] = workspaceArg(args);
             return s.chat_sessions->create(c.principal, args);
         })});

    tools.push_back({.name = "list_chat_sessions",
                     .title = "List chat sessions",
                     .description =
                         "The caller's chat sessions in the personal scope, or in a team "
                         "workspace when `workspace_id` is given, most recently active first.",
                     .input_schema = objectSchema({{"workspace_id", workspaceProperty()}}),
                     .output_schema = output({{"type", "object"},
                                              {"properties", {{"sessions", {{"type", "array"}}}}},
                                              {"required", {"sessions"}}}),
                     .scopes = kQuery,
                     .read_only = true,
                     .handler = call([&s](const ToolCall& c) -> Result<json> {
                         if (!s.chat_sessions) return unavailable();
                         return s.chat_sessions->list(c.principal, workspaceArg(c.arguments));
                     })});

    tools.push_back(
        {.name = "get_chat_session",
         .title = "Get a chat session",
         .description = "A chat session with its turns in order (user questions and cited "
                        "assistant answers with their trace ids).",
         .input_schema =
             objectSchema({{"session_id", sessionIdProperty("The session's id.")}}, {"session_id"}),
         .output_schema = sessionOutput(),
         .scopes = kQuery,
         .read_only = true,
         .handler = call([&s](const ToolCall& c) -> Result<json> {
             if (!s.chat_sessions) return unavailable();
             return s.chat_sessions->get(c.principal, stringArg(c.arguments, "session_id"));
         })});

    tools.push_back(
        {.name = "update_chat_session",
         .title = "Rename a chat session",
         .description = "Change a chat session's title.",
         .input_schema = objectSchema({{"session_id", sessionIdProperty("The session's id.")},
                                       {"title",
                                        {{"type", "string"},
                                         {"minLength", 1},
                                         {"maxLength", 200},
                                         {"description", "The new title."}}}},
                                      {"session_id", "title"}),
         .output_schema = sessionOutput(),
         .scopes = kSessionsWrite,
         .handler = call([&s](const ToolCall& c) -> Result<json> {
             if (!s.chat_sessions) return unavailable();
             return s.chat_sessions->rename(c.principal, stringArg(c.arguments, "session_id"),
                                            stringArg(c.arguments, "title"));
         })});

    tools.push_back(
        {.name = "delete_chat_session",
         .title = "Delete a chat session",
         .description = "Permanently delete a chat session and its turns (answer traces stay). "
                        "Destructive: ask the user first, then call with `confirm: true`; "
                        "without it nothing is deleted and the result is "
                        "`confirmation_required`.",
         .input_schema =
             objectSchema({{"session_id", sessionIdProperty("The session's id.")},
                           {"confirm",
                            {{"type", "boolean"},
                             {"description", "Must be true to delete; the user has agreed."}}}},
                          {"session_id"}),
         .output_schema =
             output({{"type", "object"},
                     {"properties",
                      {{"session_id", {{"type", "string"}}}, {"deleted", {{"type", "boolean"}}}}},
                     {"required", {"session_id", "deleted"}}}),
         .scopes = kSessionsWrite,
         .requires_confirm = true,
         .destructive = true,
         .handler = call([&s](const ToolCall& c) -> Result<json> {
             if (!s.chat_sessions) return unavailable();
             return s.chat_sessions->remove(c.principal, stringArg(c.arguments, "session_id"));
         })});

    return tools;
}

std::vector<Resource> knowledgeResources(const McpServices& s) {
    std::vector<Resource> resources;
    resources.push_back(
        {.uri_template = "docintel://sessions/{session_id}",
         .name = "chat_session",
         .title = "Chat session",
         .description = "A chat session with its turns (as get_chat_session returns it).",
         .scopes = kQuery,
         .reader = [&s](const std::string&, const std::map<std::string, std::string>& v,
                        const plugin::Principal& caller) -> Result<json> {
             if (!s.chat_sessions) return unavailable();
             return s.chat_sessions->get(caller, v.at("session_id"));
         }});
    return resources;
}

}  // namespace docintel::mcp

#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "auth/oauth/browser_sign_in.h"
#include "auth/oauth/oauth_settings.h"
#include "auth/oauth/page_renderer.h"
#include "console/page_images.h"
#include "engine/review_task_service.h"
#include "engine/workflow_service.h"
#include "events/event_service.h"
#include "http/api_dispatcher.h"
#include "http/schema_validator.h"
#include "knowledge/knowledge_service.h"
#include "plugin_host/plugin_registry.h"
#include "services/document_service.h"
#include "services/upload_service.h"
#include "services/workspace_service.h"

namespace docintel::console {

/// The services the console calls: the same objects the REST routes call, so the console can
/// do nothing the API refuses. Borrowed; they outlive the pages.
struct ConsoleServices {
    services::WorkspaceService& workspaces;
    services::DocumentService& documents;
    engine::WorkflowService& workflows;
    engine::ReviewTaskService& reviews;
    services::UploadService& uploads;
    /// The request schemas the REST routes validate with (the console's uploads use them).
    const http::SchemaRegistry& schemas;
    knowledge::KnowledgeService* knowledge;  ///< null on a node that does not search
    /// The run page's events (optional).
    events::EventService* events = nullptr;
    /// Where plugins' console pages come from (optional).
    const plugin_host::PluginRegistry* plugins = nullptr;
};

/// The reviewer console under `/console` (docs/console.md, decision 0071): server-rendered
/// pages (`templates/console/`) for the people who review and approve workflow runs. Sign-in
/// is the shared BrowserSignIn as the first-party client `docintel_console`, open to every
/// enabled user; the session keeps the scopes of that sign-in and every page calls the
/// services as that principal. Every state change is a POST carrying the session's CSRF
/// token. Pages are sent with a CSP that allows only this server's own stylesheet and
/// images, no script and no inline style.
///
/// console_pages.cpp: routing, session, sign-in/out, inbox, files; console_run_pages.cpp:
/// the run page, field edits, approval, packets; console_document_pages.cpp: documents,
/// browser upload, ask and the cited page. Stateless apart from BrowserSignIn; thread-safe.
class ConsolePages {
  public:
    ConsolePages(ConsoleServices services, std::unique_ptr<auth::oauth::BrowserSignIn> sign_in,
                 std::string cache_dir);

    /// The console's OAuth client, cookies (path `/console`), idle timeout (30 min) and
    /// longest session (12 h).
    static auth::oauth::BrowserSignInOptions signInOptions(
        const auth::oauth::OAuthSettings& settings);

    /// True for `/console` and `/console/...`.
    static bool owns(const std::string& path);

    /// Never throws: an unexpected exception answers a plain 500 page.
    plugin::HttpResponse handle(const http::RawRequest& request);

    /// The origin of `signed_url`, a signed upload URL of the object store (S3's bucket), is
    /// added to the documents page's `connect-src`, where the browser PUTs the bytes; "" =
    /// uploads go to this server ('self'). Set once before serving.
    void setUploadOrigin(const std::string& signed_url);

  private:
    struct Context {
        const http::RawRequest& request;
        const auth::oauth::PageSession& session;
        plugin::Principal principal;
        std::map<std::string, std::string> query;
        std::map<std::string, std::string> form;
        std::string trace_id;  ///< the request's, as its log line and X-Trace-Id give it
    };

    plugin::HttpResponse route(const http::RawRequest& request, const std::string& trace_id);
    plugin::HttpResponse callback(const http::RawRequest& request);
    plugin::HttpResponse signedIn(Context& c, const std::vector<std::string>& seg);

    plugin::HttpResponse inbox(Context& c);
    /// Open review tasks assigned to the caller or to no one, in the chosen workspace.
    nlohmann::json openTasks(Context& c, const std::string& workspace);
    plugin::HttpResponse takeTask(Context& c, const std::string& task_id);
    /// The confirmation page of a review task's decision, and the decision itself
    /// (ReviewTaskService::decide, which decides the run).
    plugin::HttpResponse decidePage(Context& c, const std::string& task_id);
    plugin::HttpResponse decideTask(Context& c, const std::string& task_id);
    /// Runs per status and open tasks of a workspace, for the inbox's refresh
    /// (`GET /console/counts`, JSON).
    nlohmann::json counts(Context& c, const std::string& workspace);
    /// Runs per status of a workspace (one grouped count), as counts' `statuses`.
    nlohmann::json runCounts(Context& c, const std::string& workspace);
    plugin::HttpResponse pageImage(Context& c, const std::string& document_id,
                                   const std::string& page);
    plugin::HttpResponse documentFile(Context& c, const std::string& document_id);

    // console_run_pages.cpp
    plugin::HttpResponse runPage(Context& c, const std::string& run_id);
    plugin::HttpResponse approvePage(Context& c, const std::string& run_id);
    plugin::HttpResponse runAction(Context& c, const std::string& run_id,
                                   const std::string& action);
    plugin::HttpResponse editField(Context& c, const nlohmann::json& run);
    /// The evidence of one field: the page image, the boxes of the passage and of the value
    /// inside it, and the excerpt.
    nlohmann::json evidence(Context& c, const nlohmann::json& source, const std::string& value);
    /// The run's events, oldest first (empty without an event service or the scope).
    nlohmann::json runEvents(Context& c, const std::string& run_id);

    // console_plugin_pages.cpp
    /// `/console/plugins/<plugin>/<path>`: a plugin's page (Registrar::addConsolePage).
    plugin::HttpResponse pluginPage(Context& c, const std::vector<std::string>& seg);
    /// The navigation's plugin pages: every listed one the caller holds the scopes of.
    nlohmann::json pluginNavigation(Context& c, const std::string& workspace);

    // console_document_pages.cpp
    plugin::HttpResponse documentsPage(Context& c);
    /// The workspace's documents with their ingestion status (`GET /console/documents.json`).
    plugin::HttpResponse documentsJson(Context& c);
    /// `step` "create" (UploadService::create) or "complete" (UploadService::complete), JSON.
    plugin::HttpResponse upload(Context& c, const std::string& step);
    plugin::HttpResponse askPage(Context& c);
    /// KnowledgeService::prepare + answer: streamed as server-sent events to a script that asks
    /// for them, else collected into the answer page.
    plugin::HttpResponse ask(Context& c);
    /// A page of a document with `quote` highlighted (a citation of an answer).
    plugin::HttpResponse documentView(Context& c, const std::string& document_id);

    /// A page inside the console frame (navigation, workspace switcher, sign-out form).
    plugin::HttpResponse render(Context* c, const std::string& page, nlohmann::json view,
                                int status);
    /// The layout's view of a page: the signed-in header, the workspaces, the navigation; adds
    /// the CSRF token to `view`.
    nlohmann::json layoutFor(Context* c, const std::string& page, nlohmann::json& view);
    /// render() with the body's template given as text (a plugin's page, named `name` in logs).
    plugin::HttpResponse renderText(Context& c, const std::string& name,
                                    const std::string& template_text, nlohmann::json view);
    plugin::HttpResponse message(Context* c, int status, const std::string& title,
                                 const std::string& text, bool offer_login);
    /// The readable page of a service error (a validation error lists its messages).
    plugin::HttpResponse errorPage(Context& c, const plugin::Error& error);
    /// The scope the REST route table requires for the same read (document and workspace
    /// services leave scopes to the routes; the workflow service checks its own).
    static plugin::Status requireScope(const Context& c, const std::string& scope);
    /// The caller's workspaces for the switcher, `selected` marked.
    nlohmann::json workspaceChoices(Context& c, const std::string& selected);

    ConsoleServices services_;
    std::unique_ptr<auth::oauth::BrowserSignIn> sign_in_;
    PageImages images_;
    /// The documents page's frame: connect-src also names the upload origin.
    auth::oauth::PageFrame documents_frame_;
};

/// The extracted fields of a review packet (objects with `value` and `confidence`), in
/// document order: `{pointer, label, value, confidence, source, missing, low}`. A field is
/// `low` under `kLowConfidence`.
nlohmann::json packetFields(const nlohmann::json& packet);
/// "5 min", "3 h", "2 days" since an RFC 3339 UTC time ("" when it does not parse).
std::string ageText(const std::string& iso);
/// What the console says of a service error: a validation error's messages as sentences, a
/// server error's "Try again shortly.", else the error's message.
std::string readableMessage(const plugin::Error& error);
/// The console's name of the workspace a run, task or document belongs to: its
/// `workspace_id`, or "personal" when that is null.
std::string workspaceOf(const nlohmann::json& resource);
/// The workspace a page or form names (`workspace`), "personal" when none.
std::string chosenWorkspace(const std::map<std::string, std::string>& params);
/// The services' name of a console workspace: "personal" is the services' "".
inline std::string serviceWorkspace(const std::string& workspace) {
    return workspace == "personal" ? std::string() : workspace;
}
/// "Waiting for review" for `pending_review`, and so on.
std::string statusLabel(const std::string& status);
inline constexpr double kLowConfidence = 0.6;

/// A value the reviewer typed, as the JSON type of the value it replaces: a number stays a
/// number (when it parses), true/false a boolean, a list or object is read as JSON of the same
/// type, "" becomes null, anything else a string. nullopt when the text does not fit.
std::optional<nlohmann::json> typedValue(const nlohmann::json& old_value, const std::string& text);

}  // namespace docintel::console

// The documents, upload and ask pages of the reviewer console, and the page a citation opens.
// Upload and ask call the services the REST routes call (UploadService::create/complete as
// POST /api/v1/uploads[/complete]; KnowledgeService::prepare/answer as POST
// /api/v1/knowledge/query/stream), with the scopes those routes require.

#include <Poco/URI.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "auth/oauth/page_renderer.h"
#include "console/console_pages.h"
#include "http/sse_response.h"

namespace docintel::console {
namespace {

using auth::oauth::formValue;
using auth::oauth::formValues;

bool accepts(const http::RawRequest& r, const std::string& type) {
    auto it = r.headers.find("accept");
    return it != r.headers.end() && it->second.find(type) != std::string::npos;
}

/// The JSON answer of the script's routes: the service's body, or its error as
/// `{"error", "message"}` with its status.
plugin::HttpResponse jsonResult(int status, const plugin::Result<nlohmann::json>& out) {
    auto r = out ? plugin::HttpResponse::json(status, *out)
                 : plugin::HttpResponse::json(
                       out.error().http_status >= 400 ? out.error().http_status : 500,
                       {{"error", out.error().code}, {"message", readableMessage(out.error())}});
    auth::oauth::addNoStore(r);
    return r;
}

/// Ingestion is over for these (a server without an encoder stops at `chunked`).
bool finalStatus(const std::string& status) { return status == "embedded" || status == "error"; }

nlohmann::json documentRow(const nlohmann::json& d) {
    const std::string status = d.value("status", "");
    return {{"id", d.value("id", "")},
            {"filename", d.value("filename", "")},
            {"status", status},
            {"pages", d.value("pages", nlohmann::json()).is_number() ? d["pages"].dump() : ""},
            {"age", ageText(d.value("created_at", ""))},
            {"created_at", d.value("created_at", "")},
            {"final", finalStatus(status)}};
}

/// The rows of a DocumentService::list answer; `pending` when one is still being ingested.
nlohmann::json documentRows(const nlohmann::json& listed, bool* pending) {
    nlohmann::json rows = nlohmann::json::array();
    *pending = false;
    for (const auto& d : listed["documents"]) {
        rows.push_back(documentRow(d));
        *pending = *pending || !rows.back()["final"].get<bool>();
    }
    return rows;
}

std::string encoded(const std::string& text) {
    std::string out;
    Poco::URI::encode(text, "!#$&'()*+,/:;=?@[]%", out);
    return out;
}

/// Where a citation of an answer leads: its page with the quote highlighted, or the run whose
/// field it cites (agent_mode).
std::string citationLink(const nlohmann::json& citation, const std::string& workspace) {
    const auto run = citation.value("run_id", nlohmann::json());
    if (run.is_string()) return "/console/runs/" + run.get<std::string>();
    const auto document = citation.value("document_id", nlohmann::json());
    if (!document.is_string()) return {};
    return "/console/documents/" + document.get<std::string>() +
           "/view?page=" + std::to_string(citation.value("page", 1)) +
           "&quote=" + encoded(citation.value("quote", "")) + "&workspace=" + encoded(workspace) +
           "#highlight";
}

}  // namespace

plugin::HttpResponse ConsolePages::documentsPage(Context& c) {
    if (auto ok = requireScope(c, "documents:read"); !ok) return errorPage(c, ok.error());
    const std::string workspace = chosenWorkspace(c.query);
    auto listed = services_.documents.list(c.principal, serviceWorkspace(workspace));
    if (!listed) return errorPage(c, listed.error());
    bool pending = false;
    const nlohmann::json rows = documentRows(*listed, &pending);
    return render(&c, "documents",
                  {{"title", "Documents"},
                   {"workspace", workspace},
                   {"documents", rows},
                   {"has_documents", !rows.empty()},
                   {"pending", pending ? "true" : "false"},
                   {"may_upload", c.principal.hasScope("documents:write")},
                   {"max_mb", services_.uploads.limits().max_bytes >> 20}},
                  200);
}

plugin::HttpResponse ConsolePages::documentsJson(Context& c) {
    if (auto ok = requireScope(c, "documents:read"); !ok) return jsonResult(0, ok.error());
    const std::string workspace = chosenWorkspace(c.query);
    auto listed = services_.documents.list(c.principal, serviceWorkspace(workspace));
    if (!listed) return jsonResult(0, listed.error());
    bool pending = false;
    const nlohmann::json rows = documentRows(*listed, &pending);
    return jsonResult(
        200, nlohmann::json{{"workspace", workspace}, {"documents", rows}, {"pending", pending}});
}

plugin::HttpResponse ConsolePages::upload(Context& c, const std::string& step) {
    // The scope of POST /api/v1/uploads and /uploads/complete.
    if (auto ok = requireScope(c, "documents:write"); !ok) {
        return accepts(c.request, "application/json") ? jsonResult(0, ok.error())
                                                      : errorPage(c, ok.error());
    }
    if (!accepts(c.request, "application/json")) {
        return message(&c, 400, "Uploading needs JavaScript",
                       "The browser sends the file itself, with a progress bar; turn JavaScript "
                       "on, or upload through the API (POST /api/v1/uploads).",
                       false);
    }
    // The form's fields as the REST routes' JSON body, checked by the same request schema.
    nlohmann::json body = nlohmann::json::object();
    for (const char* name : {"filename", "content_type", "doc_id", "storage_source_path"}) {
        if (const std::string v = formValue(c.form, name); !v.empty()) body[name] = v;
    }
    const std::string size_text = formValue(c.form, "file_size");
    char* end = nullptr;
    const long long size = std::strtoll(size_text.c_str(), &end, 10);
    body["file_size"] =
        !size_text.empty() && *end == '\0' ? nlohmann::json(size) : nlohmann::json(size_text);
    const bool create = step == "create";
    if (auto issues = services_.schemas.validate(
            create ? "DirectUploadSessionRequest" : "DirectUploadCompleteRequest", body, {"body"});
        !issues.empty()) {
        return jsonResult(0, http::validationError(issues));
    }
    const std::string workspace = serviceWorkspace(chosenWorkspace(c.form));
    if (create) return jsonResult(201, services_.uploads.create(c.principal, workspace, body));
    return jsonResult(202, services_.uploads.complete(c.principal, workspace, body));
}

namespace {

/// The ask form: the question and the workspace's searchable documents, `chosen` checked.
nlohmann::json askView(services::DocumentService& documents, const plugin::Principal& caller,
                       const std::string& workspace, const std::string& question,
                       const std::vector<std::string>& chosen) {
    nlohmann::json docs = nlohmann::json::array();
    // The document list needs documents:read (GET /api/v1/documents); asking does not.
    auto listed = caller.hasScope("documents:read")
                      ? documents.list(caller, serviceWorkspace(workspace))
                      : plugin::Result<nlohmann::json>(plugin::Error::forbidden("scope", "scope"));
    if (listed) {
        for (const auto& d : (*listed)["documents"]) {
            if (d.value("status", "") != "embedded") continue;
            const std::string id = d.value("id", "");
            bool checked = false;
            for (const auto& c : chosen) checked = checked || c == id;
            docs.push_back(
                {{"id", id}, {"filename", d.value("filename", "")}, {"checked", checked}});
        }
    }
    return {{"title", "Ask"},
            {"workspace", workspace},
            {"question", question},
            {"documents", docs},
            {"has_documents", !docs.empty()}};
}

}  // namespace

plugin::HttpResponse ConsolePages::askPage(Context& c) {
    // The scope of POST /api/v1/knowledge/query/stream.
    if (auto ok = requireScope(c, "knowledge:query"); !ok) return errorPage(c, ok.error());
    return render(&c, "ask",
                  askView(services_.documents, c.principal, chosenWorkspace(c.query), "", {}), 200);
}

plugin::HttpResponse ConsolePages::ask(Context& c) {
    const bool events = accepts(c.request, "text/event-stream");
    const auto fail = [&](const plugin::Error& e) {
        return events ? jsonResult(0, e) : errorPage(c, e);
    };
    if (auto ok = requireScope(c, "knowledge:query"); !ok) return fail(ok.error());
    if (!services_.knowledge) {
        return fail(plugin::Error::unavailable("search_unavailable", "this node does not search"));
    }
    const std::string workspace = chosenWorkspace(c.form);
    const std::string question = formValue(c.form, "question");
    const auto chosen = formValues(c.request.body, "document_id");
    if (question.empty() || question.size() > 12000) {
        return fail(plugin::Error{"validation_error", "Type a question.", 422});
    }
    nlohmann::json request = {{"question", question}};
    if (!chosen.empty()) request["document_ids"] = chosen;
    auto plan =
        services_.knowledge->prepare(c.principal, serviceWorkspace(workspace), request, c.trace_id);
    if (!plan) return fail(plan.error());
    if (events) {
        auto r =
            http::sseResponse([&knowledge = *services_.knowledge, plan = std::move(plan).value()](
                                  const http::EmitFrame& emit) { knowledge.answer(plan, emit); });
        r.status = 200;
        return r;
    }
    // Without a script: the same frames, collected into the page.
    nlohmann::json done;
    nlohmann::json failed;
    services_.knowledge->answer(*plan, [&](const nlohmann::json& frame) {
        const std::string type = frame.value("type", "");
        if (type == "done") done = frame;
        if (type == "error") failed = frame;
        return true;
    });
    nlohmann::json view = askView(services_.documents, c.principal, workspace, question, chosen);
    if (failed.is_object()) {
        view["error"] = "The answer could not be made. Try again shortly.";
    } else if (done.is_object()) {
        nlohmann::json citations = nlohmann::json::array();
        for (const auto& ct : done.value("citations", nlohmann::json::array())) {
            citations.push_back({{"number", ct.value("source_number", 0)},
                                 {"doc_name", ct.value("doc_name", "")},
                                 {"page", ct.value("page", 0)},
                                 {"quote", ct.value("quote", "")},
                                 {"link", citationLink(ct, workspace)}});
        }
        view["has_answer"] = true;
        view["answer"] = done.value("answer", "");
        view["refused"] = done.value("refused", false);
        view["citations"] = citations;
    }
    return render(&c, "ask", view, 200);
}

plugin::HttpResponse ConsolePages::documentView(Context& c, const std::string& document_id) {
    if (auto ok = requireScope(c, "documents:read"); !ok) return errorPage(c, ok.error());
    auto doc = services_.documents.get(c.principal, document_id);
    if (!doc) return errorPage(c, doc.error());
    const int pages = (*doc)["pages"].is_number() ? (*doc)["pages"].get<int>() : 0;
    int page = std::atoi(formValue(c.query, "page").c_str());
    if (page < 1 || (pages > 0 && page > pages)) page = 1;
    const std::string quote = formValue(c.query, "quote");
    const std::string workspace = workspaceOf(*doc);
    const bool is_pdf = doc->value("content_type", "").find("pdf") != std::string::npos ||
                        doc->value("detected_type", "") == "pdf";
    nlohmann::json view = {{"title", doc->value("filename", "Document")},
                           {"filename", doc->value("filename", "")},
                           {"document_id", document_id},
                           {"workspace", workspace},
                           {"page", page},
                           {"pages", pages},
                           {"quote", quote},
                           {"is_pdf", is_pdf}};
    const std::string base = "/console/documents/" + document_id + "/view?page=";
    if (page > 1) view["previous"] = base + std::to_string(page - 1);
    if (page < pages) view["next"] = base + std::to_string(page + 1);
    if (is_pdf) {
        view["evidence"] =
            evidence(c, {{"document_id", document_id}, {"page", page}, {"excerpt", quote}}, "");
        view["highlighted"] = view["evidence"]["highlighted"];
    }
    return render(&c, "document_view", view, 200);
}

}  // namespace docintel::console

// The run page of the reviewer console: fields with their evidence, edits, approval, packets.

#include <cctype>
#include <cstdio>
#include <cstdlib>

#include "auth/oauth/page_renderer.h"
#include "common/mustache.h"
#include "console/console_pages.h"

namespace docintel::console {
namespace {

using auth::oauth::formValue;
using auth::oauth::seeOther;

/// What a `?done=` code after a successful form post says (nothing else is echoed).
std::string noticeText(const std::string& done) {
    if (done == "saved") return "Saved. The change is in the audit trail below.";
    if (done == "approved") return "Approved.";
    if (done == "changes_requested") return "Sent back for changes.";
    if (done == "packet") return "Packet generated. Download it below.";
    if (done == "decided") return "The review task is decided.";
    return {};
}

std::string display(const nlohmann::json& v) {
    if (v.is_null()) return {};
    if (v.is_string()) return v.get<std::string>();
    return v.dump();
}

/// "/patient/member_id" → "Patient › Member id"; array indexes count from 1.
std::string labelOf(const std::string& pointer) {
    std::string out;
    std::size_t start = 1;
    while (start <= pointer.size()) {
        auto slash = pointer.find('/', start);
        if (slash == std::string::npos) slash = pointer.size();
        std::string part = pointer.substr(start, slash - start);
        if (!part.empty() && part.find_first_not_of("0123456789") == std::string::npos) {
            part = "#" + std::to_string(std::atoi(part.c_str()) + 1);
        }
        for (char& ch : part) {
            if (ch == '_') ch = ' ';
        }
        if (!part.empty()) part[0] = static_cast<char>(std::toupper(part[0]));
        if (!out.empty() && !part.empty()) out += " › ";
        out += part;
        start = slash + 1;
    }
    return out;
}

void collectFields(const nlohmann::json& node, const std::string& pointer, nlohmann::json& out) {
    if (node.is_object() && node.contains("value") && node.contains("confidence")) {
        const double confidence =
            node["confidence"].is_number() ? node["confidence"].get<double>() : 0.0;
        const bool missing = node["value"].is_null() || (node["value"].is_string() &&
                                                         node["value"].get<std::string>().empty());
        out.push_back({{"pointer", pointer},
                       {"label", labelOf(pointer)},
                       {"value", display(node["value"])},
                       {"confidence", confidence},
                       {"confidence_pct", static_cast<int>(confidence * 100 + 0.5)},
                       {"source", node.value("source", nlohmann::json(nullptr))},
                       {"missing", missing},
                       {"low", !missing && confidence < kLowConfidence}});
        return;
    }
    if (node.is_object()) {
        for (const auto& [k, v] : node.items()) collectFields(v, pointer + "/" + k, out);
    } else if (node.is_array()) {
        for (std::size_t i = 0; i < node.size(); ++i) {
            collectFields(node[i], pointer + "/" + std::to_string(i), out);
        }
    }
}

std::string expectedText(const nlohmann::json& old_value) {
    if (old_value.is_boolean()) return "true or false";
    if (old_value.is_array()) return "a JSON list, like [\"a\", \"b\"]";
    if (old_value.is_object()) return "a JSON object";
    return "a number";
}

/// The page image with its highlight boxes (templates/console/evidence_figure), as the run
/// page's evidence panel and the cited page of an answer show it. The first passage box is the
/// `#highlight` anchor a citation link scrolls to.
std::string figureHtml(nlohmann::json& evidence) {
    if (!evidence["boxes"].empty()) evidence["boxes"][0]["anchor"] = true;
    auto html = common::renderMustache(
        auth::oauth::embeddedTemplate("console/evidence_figure.html.mustache"), evidence);
    return html ? *html : std::string();
}

std::string percent(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    return buf;
}

}  // namespace

nlohmann::json packetFields(const nlohmann::json& packet) {
    nlohmann::json out = nlohmann::json::array();
    collectFields(packet, "", out);
    return out;
}

std::optional<nlohmann::json> typedValue(const nlohmann::json& old_value, const std::string& text) {
    if (text.empty()) return nlohmann::json(nullptr);
    if (old_value.is_number()) {
        char* end = nullptr;
        const double d = std::strtod(text.c_str(), &end);
        if (end == text.c_str() || *end != '\0') return std::nullopt;
        if (old_value.is_number_integer() && text.find_first_of(".eE") == std::string::npos) {
            return nlohmann::json(std::strtoll(text.c_str(), nullptr, 10));
        }
        return nlohmann::json(d);
    }
    if (old_value.is_array() || old_value.is_object()) {
        auto parsed = nlohmann::json::parse(text, nullptr, false);
        if (parsed.is_discarded() || parsed.type() != old_value.type()) return std::nullopt;
        return parsed;
    }
    if (old_value.is_boolean()) {
        if (text == "true") return nlohmann::json(true);
        if (text == "false") return nlohmann::json(false);
        return std::nullopt;
    }
    return nlohmann::json(text);
}

nlohmann::json ConsolePages::evidence(Context& c, const nlohmann::json& source,
                                      const std::string& value) {
    const std::string doc_id = source.value("document_id", "");
    const int page = source.value("page", 0);
    nlohmann::json out = {
        {"document_id", doc_id},
        {"page", page},
        {"excerpt", source.value("excerpt", "")},
        {"image", "/console/documents/" + doc_id + "/pages/" + std::to_string(page) + ".png"}};
    if (!requireScope(c, "documents:read").ok()) {
        out["no_access"] = true;
        out["boxes"] = nlohmann::json::array();
        out["value_boxes"] = nlohmann::json::array();
        out["highlighted"] = false;
        out["figure"] = figureHtml(out);
        return out;
    }
    if (auto doc = services_.documents.get(c.principal, doc_id)) {
        out["filename"] = doc->value("filename", doc_id);
    }
    const auto toJson = [](const std::vector<PageBox>& found) {
        nlohmann::json j = nlohmann::json::array();
        for (const auto& b : found) {
            j.push_back({{"x", percent(b.x)},
                         {"y", percent(b.y)},
                         {"width", percent(b.width)},
                         {"height", percent(b.height)}});
        }
        return j;
    };
    nlohmann::json boxes = nlohmann::json::array();
    nlohmann::json value_boxes = nlohmann::json::array();
    if (auto file = services_.documents.mediaFile(c.principal, doc_id)) {
        if (auto words = images_.words(*file, page)) {
            const std::string excerpt = source.value("excerpt", "");
            boxes = toJson(highlightBoxes(*words, excerpt));
            value_boxes = toJson(valueBoxes(*words, excerpt, value));
        }
    }
    out["value_boxes"] = value_boxes;
    out["boxes"] = boxes;
    out["highlighted"] = !boxes.empty();
    out["figure"] = figureHtml(out);
    return out;
}

plugin::HttpResponse ConsolePages::runPage(Context& c, const std::string& run_id) {
    auto stored = services_.workflows.readableRun(c.principal, run_id);
    if (!stored) return errorPage(c, stored.error());
    auto run = services_.workflows.get(c.principal, stored->vertical, run_id);
    if (!run) return errorPage(c, run.error());
    auto audit = services_.workflows.audit(c.principal, stored->vertical, run_id);
    const auto allowed = services_.workflows.allowedActions(c.principal, *stored);
    const std::string status = run->value("status", "");
    const bool editable = status == "pending_review" || status == "changes_requested";

    const std::string focus = formValue(c.query, "field");
    nlohmann::json fields = packetFields(run->value("review_packet", nlohmann::json::object()));
    nlohmann::json focused;
    for (auto& f : fields) {
        f["editable"] = editable && allowed.value("review", false);
        f["focused"] = f["pointer"] == focus;
        f["has_source"] = f["source"].is_object();
        if (f["has_source"]) {
            f["citation"] = "page " + std::to_string(f["source"].value("page", 0));
            f["evidence_link"] = "/console/runs/" + run_id +
                                 "?field=" + f["pointer"].get<std::string>() + "#evidence";
        }
        if (f["focused"] && f["has_source"]) focused = f;
    }
    nlohmann::json view = {
        {"title", run->value("title", run->value("workflow", "Run"))},
        {"run_id", run_id},
        {"workflow", run->value("workflow", "")},
        {"status", status},
        {"status_label", statusLabel(status)},
        {"workspace", workspaceOf(*run)},
        {"created_at", run->value("created_at", "")},
        {"fields", fields},
        {"notice", noticeText(formValue(c.query, "done"))},
        {"can_approve", editable && status == "pending_review" && allowed.value("approve", false)},
        {"can_request_changes", status == "pending_review" && allowed.value("approve", false)},
        {"approved_by", run->value("approved_by", nlohmann::json(nullptr))}};
    if (focused.is_object()) {
        view["evidence"] = evidence(c, focused["source"], focused["value"].get<std::string>());
        view["evidence"]["label"] = focused["label"];
    }
    nlohmann::json docs = nlohmann::json::array();
    for (const auto& id : run->value("document_ids", nlohmann::json::array())) {
        auto d = requireScope(c, "documents:read").ok()
                     ? services_.documents.get(c.principal, id.get<std::string>())
                     : plugin::Result<nlohmann::json>(plugin::Error::notFound("no access"));
        docs.push_back({{"id", id}, {"filename", d ? d->value("filename", "") : id.dump()}});
    }
    view["documents"] = docs;
    nlohmann::json types = nlohmann::json::array();
    // Bound to a name: items() of a temporary would outlive it.
    const auto readiness = run->value("packet_readiness", nlohmann::json::object());
    for (const auto& [type, r] : readiness.items()) {
        nlohmann::json unresolved = nlohmann::json::array();
        for (const auto& u : r.value("unresolved", nlohmann::json::array())) {
            unresolved.push_back(u.is_string() ? u : nlohmann::json(u.value("label", u.dump())));
        }
        types.push_back({{"type", type},
                         {"ready", r.value("ready", false)},
                         {"unresolved", unresolved},
                         {"has_unresolved", !unresolved.empty()}});
    }
    view["packet_types"] = types;
    nlohmann::json packets = nlohmann::json::array();
    for (const auto& p : run->value("packets", nlohmann::json::array())) {
        if (!p["document_id"].is_string()) continue;
        packets.push_back(
            {{"packet_type", p.value("packet_type", "")},
             {"created_at", p.value("created_at", "")},
             {"download", "/console/documents/" + p["document_id"].get<std::string>() + "/file"}});
    }
    view["packets"] = packets;
    view["has_packets"] = !packets.empty();
    nlohmann::json changes = nlohmann::json::array();
    if (audit) {
        for (const auto& ch : (*audit)["changes"]) {
            changes.push_back({{"label", labelOf(ch.value("path", ""))},
                               {"old_value", display(ch["old_value"])},
                               {"new_value", display(ch["new_value"])},
                               {"changed_by", display(ch["changed_by"])},
                               {"changed_at", ch.value("changed_at", "")}});
        }
    }
    view["changes"] = changes;
    view["has_changes"] = !changes.empty();
    view["revision"] = run->value("revision", 0);
    view["events"] = runEvents(c, run_id);
    view["has_events"] = !view["events"].empty();
    return render(&c, "run", view, 200);
}

nlohmann::json ConsolePages::runEvents(Context& c, const std::string& run_id) {
    nlohmann::json out = nlohmann::json::array();
    // GET /api/v1/events asks for workspaces:read; the service leaves it to the route.
    if (!services_.events || !requireScope(c, "workspaces:read").ok()) return out;
    auto listed = services_.events->listEvents(c.principal, "", "workflow_run", run_id, 100);
    if (!listed) return out;
    for (const auto& e : (*listed)["events"]) {
        const auto& payload = e["payload"];
        std::string detail;
        for (const char* key : {"status", "packet_type", "notes", "reviewer_notes"}) {
            if (payload.is_object() && payload.contains(key) && payload[key].is_string() &&
                !payload[key].get<std::string>().empty()) {
                detail += (detail.empty() ? "" : " · ") + payload[key].get<std::string>();
            }
        }
        out.push_back({{"type", e.value("event_type", "")},
                       {"detail", detail},
                       {"actor", display(e["actor"])},
                       {"created_at", e.value("created_at", "")}});
    }
    return out;
}

plugin::HttpResponse ConsolePages::decidePage(Context& c, const std::string& task_id) {
    if (auto ok = requireScope(c, "reviews:approve"); !ok) return errorPage(c, ok.error());
    auto task = services_.reviews.get(c.principal, task_id);
    if (!task) return errorPage(c, task.error());
    const std::string status = task->value("status", "");
    if (status != "pending" && status != "in_review") {
        return message(&c, 409, "Not possible now", "This review task is " + status + " already.",
                       false);
    }
    return render(&c, "decide",
                  {{"title", "Decide this review task"},
                   {"task_id", task_id},
                   {"task_title", task->value("title", "")},
                   {"run_id", task->value("run_id", "")},
                   {"priority", task->value("priority", "")},
                   {"workspace", workspaceOf(*task)}},
                  200);
}

plugin::HttpResponse ConsolePages::decideTask(Context& c, const std::string& task_id) {
    if (auto ok = requireScope(c, "reviews:approve"); !ok) return errorPage(c, ok.error());
    const std::string decision = formValue(c.form, "decision");
    if (decision != "approved" && decision != "changes_requested" && decision != "rejected") {
        return message(&c, 422, "Check the decision", "Choose approve, request changes or reject.",
                       false);
    }
    if (formValue(c.form, "confirm") != "yes")
        return seeOther("/console/tasks/" + task_id + "/decide");
    auto decided = services_.reviews.decide(
        c.principal, task_id,
        {{"decision", decision}, {"reviewer_notes", formValue(c.form, "notes")}});
    if (!decided) return errorPage(c, decided.error());
    return seeOther("/console?workspace=" + workspaceOf(*decided) + "&done=decided");
}

plugin::HttpResponse ConsolePages::approvePage(Context& c, const std::string& run_id) {
    auto stored = services_.workflows.readableRun(c.principal, run_id);
    if (!stored) return errorPage(c, stored.error());
    if (!services_.workflows.allowedActions(c.principal, *stored).value("approve", false)) {
        return message(&c, 403, "Not allowed", "You may not approve this run.", false);
    }
    return render(&c, "approve",
                  {{"title", "Approve this run?"},
                   {"run_id", run_id},
                   {"workflow", stored->workflow},
                   {"fields", packetFields(stored->packet).size()}},
                  200);
}

plugin::HttpResponse ConsolePages::runAction(Context& c, const std::string& run_id,
                                             const std::string& action) {
    auto stored = services_.workflows.readableRun(c.principal, run_id);
    if (!stored) return errorPage(c, stored.error());
    const std::string& vertical = stored->vertical;
    const std::string back = "/console/runs/" + run_id;
    if (action == "fields") {
        auto run = services_.workflows.get(c.principal, vertical, run_id);
        if (!run) return errorPage(c, run.error());
        return editField(c, *run);
    }
    if (action == "approve") {
        if (formValue(c.form, "confirm") != "yes") return seeOther(back + "/approve");
        auto done =
            services_.workflows.approve(c.principal, vertical, run_id,
                                        {{"confirm", true}, {"notes", formValue(c.form, "notes")}});
        if (!done) return errorPage(c, done.error());
        return seeOther(back + "?done=approved");
    }
    if (action == "request-changes") {
        auto done = services_.workflows.requestChanges(c.principal, vertical, run_id,
                                                       {{"notes", formValue(c.form, "notes")}});
        if (!done) return errorPage(c, done.error());
        return seeOther(back + "?done=changes_requested");
    }
    if (action == "packets") {
        auto done = services_.workflows.generatePacket(
            c.principal, vertical, run_id, {{"packet_type", formValue(c.form, "packet_type")}});
        if (!done) return errorPage(c, done.error());
        return seeOther(back + "?done=packet");
    }
    return message(&c, 404, "Not found", "There is no such action.", false);
}

plugin::HttpResponse ConsolePages::editField(Context& c, const nlohmann::json& run) {
    const std::string run_id = run.value("run_id", "");
    const std::string pointer = formValue(c.form, "field");
    nlohmann::json packet = run.value("review_packet", nlohmann::json::object());
    // Another reviewer's save since this form was rendered: do not overwrite what they saw.
    const std::string seen = formValue(c.form, "revision");
    if (!seen.empty() && seen != std::to_string(run.value("revision", 0))) {
        return message(&c, 409, "Changed by someone else",
                       "This run was changed since you opened it. Reload it to see the current "
                       "values, then make your change again.",
                       false);
    }
    nlohmann::json* field = nullptr;
    try {
        field = &packet.at(nlohmann::json::json_pointer(pointer));
    } catch (const nlohmann::json::exception&) {
        field = nullptr;
    }
    if (pointer.empty() || !field || !field->is_object() || !field->contains("value")) {
        return message(&c, 422, "Check the value", "There is no such field in this run.", false);
    }
    auto value = typedValue((*field)["value"], formValue(c.form, "value"));
    if (!value) {
        return message(&c, 422, "Check the value",
                       "This field needs " + expectedText((*field)["value"]) + ".", false);
    }
    // A typed value has no citation: the reviewer vouches for it.
    (*field)["value"] = *value;
    (*field)["source"] = nullptr;
    (*field)["confidence"] = 1.0;
    auto saved = services_.workflows.saveReview(
        c.principal, run.value("vertical", ""), run_id,
        {{"packet", packet}, {"notes", "Edited in the reviewer console"}});
    if (!saved) return errorPage(c, saved.error());
    return seeOther("/console/runs/" + run_id + "?done=saved");
}

}  // namespace docintel::console

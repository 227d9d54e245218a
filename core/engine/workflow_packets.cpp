// Packet generation: template → HTML → PDF → a new document of the run's scope, ingested.
#include <chrono>
#include <sstream>

#include "common/clock.h"
#include "common/id.h"
#include "common/log.h"
#include "engine/workflow_service.h"
#include "ingest/document_type.h"
#include "services/document_service.h"
#include "services/upload_service.h"

namespace docintel::engine {

plugin::Result<nlohmann::json> WorkflowService::generatePacket(const plugin::Principal& caller,
                                                               const std::string& vertical,
                                                               const std::string& run_id,
                                                               const nlohmann::json& body) {
    if (!caller.hasScope("packets:write")) {
        return plugin::Error::forbidden("insufficient_scope", "this needs the scope packets:write");
    }
    auto run = load(caller, vertical, run_id);
    if (!run) return run.error();
    if (!run->workspace_id.empty()) {
        auto role = p_.workspaces.require(caller.user_id, run->workspace_id,
                                          auth::WorkspaceAction::kManageDocuments);
        if (!role) return role.error();
    }
    auto workflow = p_.catalog.find(run->workflow);
    if (!workflow) {
        return plugin::Error::unavailable("workflow_unavailable", "the workflow is not loaded");
    }
    const std::string type = body.value("packet_type", "");
    const nlohmann::json* packet_type = workflow->packetType(type);
    if (!packet_type) {
        nlohmann::json known = nlohmann::json::array();
        for (const auto& t : workflow->definition.at("packet_types")) known.push_back(t.at("type"));
        return plugin::Error::unprocessable(
            "unknown_packet_type",
            "packet_type must be one of " + known.dump() + " for " + run->workflow);
    }
    const auto& allowed = packet_type->at("allowed_statuses");
    if (std::find(allowed.begin(), allowed.end(), run->status) == allowed.end()) {
        return plugin::Error::conflict(
            "run_not_ready",
            type + " packets need a run in " + allowed.dump() + "; the run is " + run->status);
    }
    if (packet_type->contains("blocked_unless")) {
        const auto unresolved = unresolvedItems(packet_type->at("blocked_unless"), run->packet);
        if (!unresolved.empty()) {
            std::string list;
            for (const auto& u : unresolved) {
                if (!list.empty()) list += "; ";
                list += u.value("id", "?");
                if (u["label"].is_string()) list += " (" + u["label"].get<std::string>() + ")";
            }
            return plugin::Error::conflict("packet_blocked", type + " is blocked until " +
                                                                 std::to_string(unresolved.size()) +
                                                                 " item(s) are resolved: " + list);
        }
    }

    const auto started = std::chrono::steady_clock::now();
    const auto tmpl = WorkflowCatalog::templateText(packet_type->at("template").get<std::string>());
    if (!tmpl) return plugin::Error::internal("packet template missing");
    nlohmann::json documents = nlohmann::json::array();
    for (const auto& id : run->document_ids) {
        if (auto d = p_.documents.find(id.get<std::string>()); d && d->has_value()) {
            documents.push_back({{"document_id", (*d)->id}, {"filename", (*d)->filename}});
        }
    }
    const nlohmann::json data = {
        {"workflow", {{"name", run->workflow}, {"title", workflow->title()}}},
        {"packet_type", {{"type", type}, {"title", packet_type->at("title")}}},
        {"run",
         {{"id", run->id},
          {"status", run->status},
          {"created_at", run->created_at},
          {"approved_at", run->approved_at},
          {"approved", run->status == "approved"},
          {"review_notes", run->review_notes},
          {"revision", run->revision}}},
        {"documents", documents},
        {"packet", run->packet},
        {"packet_json", run->packet.dump(2)},
        {"generated_at", common::nowIso8601()}};
    auto html = p_.renderer.html(*tmpl, data);
    if (!html) return html.error();
    auto pdf = p_.renderer.pdf(*html);
    if (!pdf) return pdf.error();
    const auto render_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                               std::chrono::steady_clock::now() - started)
                               .count();

    storage::Document d;
    d.id = common::newUuid();
    d.owner_id = caller.user_id;
    d.workspace_id = run->workspace_id;
    d.filename = run->workflow + "-" + type + "-" + run->id.substr(0, 8) + ".pdf";
    d.content_type = "application/pdf";
    d.declared_size = static_cast<std::int64_t>(pdf->size());
    d.storage_key = "documents/" + d.id + "/" + d.filename;
    auto created = p_.documents.create(d);
    if (!created) return created.error();
    std::istringstream bytes(*pdf);
    auto stored = p_.objects.put(d.storage_key, bytes, d.declared_size, d.content_type);
    if (!stored) {
        (void)p_.documents.fail(d.id, "packet_store_failed", "the packet could not be stored");
        return stored.error();
    }
    storage::PacketRecord record;
    record.id = common::newUuid();
    record.run_id = run->id;
    record.packet_type = type;
    record.document_id = d.id;
    record.revision = run->revision;
    record.created_by = caller.user_id;
    if (auto ok = p_.runs.addPacket(record, {"packet.generated",
                                             "workflow_run",
                                             run->id,
                                             run->workspace_id,
                                             caller.user_id,
                                             {{"run_id", run->id},
                                              {"packet_type", type},
                                              {"document_id", d.id},
                                              {"packet_id", record.id}}});
        !ok) {
        return ok.error();
    }
    // The ordinary ingestion path: chunked, then embedded, like any uploaded PDF.
    auto queued = p_.documents.completeUpload(d.id, stored->size, stored->sha256,
                                              ingest::toString(ingest::DocumentType::kPdf),
                                              services::UploadService::kIngestJob);
    if (!queued) return queued.error();
    if (wake_) wake_();
    common::log(common::LogLevel::kInfo, "packet_generated",
                {{"run_id", run->id},
                 {"packet_type", type},
                 {"document_id", d.id},
                 {"bytes", std::to_string(pdf->size())},
                 {"render_ms", std::to_string(render_ms)}});
    auto doc = p_.documents.find(d.id);
    if (!doc) return doc.error();
    nlohmann::json document = services::DocumentService::toJson(**doc);
    document["doc_id"] = d.id;
    return nlohmann::json{{"run_id", run->id},      {"packet_id", record.id},
                          {"packet_type", type},    {"revision", run->revision},
                          {"render_ms", render_ms}, {"document", document},
                          {"document_id", d.id},    {"doc_id", d.id}};
}

}  // namespace docintel::engine

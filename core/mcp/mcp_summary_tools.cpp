// summarize_document, summarize_documents and compare_documents (spec §4.3): thin adapters over
// knowledge::Summarizer and knowledge::DocumentComparer, the services REST's summary stream
// calls.

#include "mcp/mcp_tool_kit.h"
#include "mcp/mcp_tools.h"

namespace docintel::mcp {
namespace {

using nlohmann::json;
using plugin::Result;
using plugin::ToolCall;

const std::vector<std::string> kGenerate{"knowledge:generate"};

json summaryTypeProperty() {
    return {{"type", "string"},
            {"enum", {"executive", "detailed", "bullets", "sections", "custom"}},
            {"default", "executive"},
            {"description",
             "executive: a few central sentences; detailed: more, paragraph per section; "
             "bullets: one sentence per line; sections: a part per heading; custom: focused on "
             "custom_prompt (required with it)."}};
}

json redactProperty() {
    return {{"type", "boolean"},
            {"default", false},
            {"description", "Replace personal data in the output by typed placeholders."}};
}

json citationSchema() {
    return {{"type", "object"},
            {"properties",
             {{"source_number", {{"type", "integer"}}},
              {"document_id", {{"type", "string"}}},
              {"chunk_index", {{"type", "integer"}}},
              {"page", {{"type", "integer"}}},
              {"char_start", {{"type", "integer"}}},
              {"char_end", {{"type", "integer"}}},
              {"quote", {{"type", "string"}}}}},
            {"required", {"source_number", "document_id", "page", "quote"}}};
}

}  // namespace

std::vector<Tool> summaryTools(const McpServices& s) {
    std::vector<Tool> tools;
    if (s.summaries) {
        auto& summaries = *s.summaries;
        tools.push_back(
            {.name = "summarize_document",
             .title = "Summarise a document",
             .description =
                 "Extractive summary of one chunked document: its most central sentences, "
                 "redundancy removed, in document order, each followed by [n] citing `sources[n]` "
                 "(document, chunk, page, character span). Long documents are summarised "
                 "map-reduce (progress notifications per group). `chunk_indices` restricts it to "
                 "those chunks (see get_document_chunks).",
             .input_schema = {{"type", "object"},
                              {"properties",
                               {{"document_id", {{"type", "string"}, {"minLength", 1}}},
                                {"summary_type", summaryTypeProperty()},
                                {"custom_prompt",
                                 {{"type", "string"},
                                  {"default", ""},
                                  {"description", "What the `custom` summary should focus on."}}},
                                {"chunk_indices",
                                 {{"type", "array"},
                                  {"items", {{"type", "integer"}}},
                                  {"default", json::array()},
                                  {"description",
                                   "Only these chunks (0-based chunk_index); empty = all."}}},
                                {"redact_pii", redactProperty()}}},
                              {"required", {"document_id"}}},
             .output_schema =
                 output({{"summary", {{"type", "string"}}},
                         {"summary_type", {{"type", "string"}}},
                         {"citations", {{"type", "array"}, {"items", citationSchema()}}},
                         {"sources", {{"type", "array"}}}},
                        {"summary", "citations", "sources"}),
             .scopes = kGenerate,
             .read_only = true,
             .handler = [&summaries](const ToolCall& c, ToolContext& ctx) -> Result<json> {
                 auto out = summaries.summarizeDocument(
                     c.principal, stringArg(c.arguments, "document_id"), c.arguments, c.trace_id,
                     [&ctx](const json& meta) {
                         const double total = meta.value("groups", 1);
                         const double done = meta.value("stage", "") == "map"
                                                 ? meta.value("group", 0)
                                                 : (meta.value("stage", "") == "plan" ? 0 : total);
                         ctx.progress(done, total, "summary: " + meta.value("stage", ""));
                     });
                 if (!out) return out.error();
                 return out;
             }});

        tools.push_back(
            {.name = "summarize_documents",
             .title = "Summarise several documents",
             .description =
                 "Summarise each document on its own and all of them together: `summary` is the "
                 "summary across the documents, `documents[]` each one's; every sentence cites "
                 "[n] into `sources` (document, chunk, page, span).",
             .input_schema = {{"type", "object"},
                              {"properties",
                               {{"document_ids",
                                 {{"type", "array"},
                                  {"items", {{"type", "string"}}},
                                  {"minItems", 1},
                                  {"maxItems", 20}}},
                                {"summary_type", summaryTypeProperty()},
                                {"custom_prompt", {{"type", "string"}, {"default", ""}}},
                                {"redact_pii", redactProperty()}}},
                              {"required", {"document_ids"}}},
             .output_schema =
                 output({{"summary", {{"type", "string"}}},
                         {"citations", {{"type", "array"}, {"items", citationSchema()}}},
                         {"documents", {{"type", "array"}}},
                         {"sources", {{"type", "array"}}}},
                        {"summary", "citations", "documents", "sources"}),
             .scopes = kGenerate,
             .read_only = true,
             .handler = [&summaries](const ToolCall& c, ToolContext&) -> Result<json> {
                 std::vector<std::string> ids;
                 for (const auto& id : c.arguments.value("document_ids", json::array())) {
                     if (id.is_string()) ids.push_back(id.get<std::string>());
                 }
                 auto out = summaries.summarizeDocuments(c.principal, ids, c.arguments, c.trace_id);
                 if (!out) return out.error();
                 return out;
             }});
    }
    if (s.comparer) {
        auto& comparer = *s.comparer;
        tools.push_back(
            {.name = "compare_documents",
             .title = "Compare two documents",
             .description =
                 "Compare two documents (e.g. two versions of a contract): sections aligned by "
                 "meaning, `changes[]` (passages whose wording changed, with the numbers and "
                 "dates that differ; passages only one has), `only_in_document_1/2` (sections "
                 "only one has), and a cited `summary`. Citations [n] point into `sources`, "
                 "which holds passages of both documents.",
             .input_schema = {{"type", "object"},
                              {"properties",
                               {{"document_id_1", {{"type", "string"}, {"minLength", 1}}},
                                {"document_id_2", {{"type", "string"}, {"minLength", 1}}},
                                {"redact_pii", redactProperty()}}},
                              {"required", {"document_id_1", "document_id_2"}}},
             .output_schema = output({{"summary", {{"type", "string"}}},
                                      {"aligned_sections", {{"type", "array"}}},
                                      {"changes", {{"type", "array"}}},
                                      {"only_in_document_1", {{"type", "array"}}},
                                      {"only_in_document_2", {{"type", "array"}}},
                                      {"sources", {{"type", "array"}}}},
                                     {"summary", "aligned_sections", "changes",
                                      "only_in_document_1", "only_in_document_2", "sources"}),
             .scopes = kGenerate,
             .read_only = true,
             .handler = [&comparer](const ToolCall& c, ToolContext&) -> Result<json> {
                 auto out = comparer.compare(c.principal, stringArg(c.arguments, "document_id_1"),
                                             stringArg(c.arguments, "document_id_2"),
                                             c.arguments.value("redact_pii", false), c.trace_id);
                 if (!out) return out.error();
                 return out;
             }});
    }
    return tools;
}

}  // namespace docintel::mcp

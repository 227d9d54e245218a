#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "http_types.h"
#include "result.h"

namespace docintel::plugin {

/// A passage of a document that a workflow step may cite: one chunk, with the page it starts
/// on. `score` is how well it matched the query (0 for a plain listing).
struct Passage {
    std::string document_id;
    std::string chunk_id;
    int page = 1;
    int page_end = 1;
    std::string text;
    double score = 0;
    /// Where `text` sits in its page's text; consecutive chunks may overlap.
    int char_start = 0;
    int char_end = 0;
};

/// What to look for: passages of `document_ids` that mention any of `keywords` (whole words,
/// case-insensitive) and, when `pattern` is set, match it (ECMAScript, case-insensitive).
/// Best first, at most `limit`.
struct EvidenceQuery {
    std::vector<std::string> document_ids;
    std::vector<std::string> keywords;
    std::string pattern;
    int limit = 5;
};

/// Where workflow steps find their evidence. The host's first implementation scans the
/// documents' chunks from Postgres and scores keyword matches; hybrid retrieval replaces it
/// behind the same interface. Callers have already checked that the documents are visible.
/// Thread-safe; never throws.
class EvidenceFinder {
  public:
    virtual ~EvidenceFinder() = default;
    /// Every passage (chunk) of the document in reading order.
    virtual Result<std::vector<Passage>> passages(const std::string& document_id) = 0;
    virtual Result<std::vector<Passage>> find(const EvidenceQuery& query) = 0;
};

/// A document a run reads, and the role the workflow's inputs gave it (`primary` for the
/// run's `document_ids`, else the name of the input that named it, e.g.
/// `policy_document_ids`).
struct StepDocument {
    std::string document_id;
    std::string filename;
    std::string role;
    int pages = 0;
};

/// What a step implementation sees: the run, its documents and inputs, and the review packet
/// as the steps before it left it.
struct StepInput {
    std::string run_id;
    std::string workflow;
    std::string workspace_id;  ///< empty = personal scope
    std::vector<StepDocument> documents;
    nlohmann::json inputs;
    nlohmann::json packet;
};

/// A step implementation a plugin registers under a name that workflow definitions refer to
/// (`steps[].uses`). It returns an object whose top-level members are merged into the review
/// packet. An Error with a 4xx status fails the run for good; 5xx is retried. It runs on a
/// job worker thread, may run again after a crash, and must not keep state between calls.
struct WorkflowStep {
    std::string name;  ///< e.g. "healthcare.prior_auth.extract_request"
    std::string description;
    std::function<Result<nlohmann::json>(const StepInput&)> run;
};

/// The run operations of the workflow engine that plugin routes and MCP tools call. Every
/// method checks the caller's scopes, workspace role and the workflow's rules itself, and
/// returns the JSON record REST and MCP share. Implemented by the host; thread-safe.
class WorkflowRuns {
  public:
    virtual ~WorkflowRuns() = default;
    /// `body`: workflow, workspace_id (null = the header's scope), document_ids, inputs.
    virtual Result<nlohmann::json> start(const Principal& caller, const std::string& workspace_id,
                                         const nlohmann::json& body) = 0;
    /// Runs of `vertical` the caller can see; `status`, `workflow`, `limit` filter.
    virtual Result<nlohmann::json> list(const Principal& caller, const std::string& workspace_id,
                                        const std::string& vertical,
                                        const std::map<std::string, std::string>& query) = 0;
    virtual Result<nlohmann::json> get(const Principal& caller, const std::string& vertical,
                                       const std::string& run_id) = 0;
    /// `body`: packet (the edited review packet), notes.
    virtual Result<nlohmann::json> saveReview(const Principal& caller, const std::string& vertical,
                                              const std::string& run_id,
                                              const nlohmann::json& body) = 0;
    /// `body`: packet (optional, saved first), notes, confirm (must be true).
    virtual Result<nlohmann::json> approve(const Principal& caller, const std::string& vertical,
                                           const std::string& run_id,
                                           const nlohmann::json& body) = 0;
    /// `body`: notes.
    virtual Result<nlohmann::json> requestChanges(const Principal& caller,
                                                  const std::string& vertical,
                                                  const std::string& run_id,
                                                  const nlohmann::json& body) = 0;
    /// `body`: packet_type. Answers the new packet document (`document.doc_id`).
    virtual Result<nlohmann::json> generatePacket(const Principal& caller,
                                                  const std::string& vertical,
                                                  const std::string& run_id,
                                                  const nlohmann::json& body) = 0;
    /// The audited field changes of the run, oldest first.
    virtual Result<nlohmann::json> audit(const Principal& caller, const std::string& vertical,
                                         const std::string& run_id) = 0;
};

}  // namespace docintel::plugin

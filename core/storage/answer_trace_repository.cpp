#include "storage/answer_trace_repository.h"

#include "common/id.h"
#include "storage/pg_time.h"

namespace docintel::storage {
namespace {

constexpr Statement kInsertTrace{
    "answer_trace_insert",
    "INSERT INTO answer_traces (id, trace_id, user_id, workspace_id, session_id, question, "
    "retrieval_query, document_ids, candidates, sources, answer, sentences, refused, redacted, "
    "timings, models) VALUES ($1, $2, $3, NULLIF($4, '')::uuid, NULLIF($5, '')::uuid, $6, $7, "
    "$8::jsonb, $9::jsonb, $10::jsonb, $11, $12::jsonb, $13, $14, $15::jsonb, $16::jsonb)"};
constexpr Statement kFindTrace{
    "answer_trace_find_for_user",
    "SELECT id, trace_id, user_id, coalesce(workspace_id::text, ''), "
    "coalesce(session_id::text, ''), question, retrieval_query, document_ids::text, "
    "candidates::text, sources::text, answer, sentences::text, refused, redacted, timings::text, "
    "models::text, created_at FROM answer_traces WHERE trace_id = $1 AND user_id = $2 "
    "ORDER BY created_at DESC, id LIMIT 1"};
constexpr Statement kInsertEvaluation{
    "answer_evaluation_insert",
    "INSERT INTO answer_evaluations (id, trace_row_id, trace_id, evaluation_type, score, "
    "metrics, details, created_by) VALUES ($1, $2, $3, $4, NULLIF($5, '')::double precision, "
    "$6::jsonb, $7::jsonb, "
    "NULLIF($8, '')::uuid) RETURNING created_at"};

nlohmann::json parseJson(const pqxx::field& f) {
    return f.is_null() ? nlohmann::json() : nlohmann::json::parse(f.c_str());
}

}  // namespace

nlohmann::json AnswerTrace::toJson() const {
    return {
        {"trace_id", trace_id},
        {"workspace_id", workspace_id.empty() ? nlohmann::json() : nlohmann::json(workspace_id)},
        {"session_id", session_id.empty() ? nlohmann::json() : nlohmann::json(session_id)},
        {"question", question},
        {"retrieval_query", retrieval_query},
        {"document_ids", document_ids},
        {"candidates", candidates},
        {"sources", sources},
        {"answer", answer},
        {"sentences", sentences},
        {"refused", refused},
        {"redacted", redacted},
        {"timings_ms", timings},
        {"models", models},
        {"created_at", created_at}};
}

nlohmann::json AnswerEvaluation::toJson() const {
    return {{"id", id},
            {"trace_id", trace_id},
            {"evaluation_type", evaluation_type},
            {"score", score ? nlohmann::json(*score) : nlohmann::json()},
            {"metrics", metrics},
            {"details", details},
            {"created_at", created_at}};
}

plugin::Result<std::string> AnswerTraceRepository::insert(const AnswerTrace& t) {
    const std::string id = t.id.empty() ? common::newUuid() : t.id;
    return db_.transact([&](Tx& tx) -> plugin::Result<std::string> {
        tx.exec(kInsertTrace, id, t.trace_id, t.user_id, t.workspace_id, t.session_id, t.question,
                t.retrieval_query, t.document_ids.dump(), t.candidates.dump(), t.sources.dump(),
                t.answer, t.sentences.dump(), t.refused, t.redacted, t.timings.dump(),
                t.models.dump());
        return id;
    });
}

plugin::Result<std::optional<AnswerTrace>> AnswerTraceRepository::findForUser(
    const std::string& trace_id, const std::string& user_id) {
    return db_.read([&](Tx& tx) -> plugin::Result<std::optional<AnswerTrace>> {
        const auto rows = tx.exec(kFindTrace, trace_id, user_id);
        if (rows.empty()) return std::optional<AnswerTrace>();
        const auto& r = rows[0];
        AnswerTrace t;
        t.id = r[0].as<std::string>();
        t.trace_id = r[1].as<std::string>();
        t.user_id = r[2].as<std::string>();
        t.workspace_id = r[3].as<std::string>();
        t.session_id = r[4].as<std::string>();
        t.question = r[5].as<std::string>();
        t.retrieval_query = r[6].as<std::string>();
        t.document_ids = parseJson(r[7]);
        t.candidates = parseJson(r[8]);
        t.sources = parseJson(r[9]);
        t.answer = r[10].as<std::string>();
        t.sentences = parseJson(r[11]);
        t.refused = r[12].as<bool>();
        t.redacted = r[13].as<bool>();
        t.timings = parseJson(r[14]);
        t.models = parseJson(r[15]);
        t.created_at = isoTime(r[16]);
        return std::optional<AnswerTrace>(std::move(t));
    });
}

plugin::Result<AnswerEvaluation> AnswerTraceRepository::insertEvaluation(
    const AnswerEvaluation& e) {
    AnswerEvaluation out = e;
    if (out.id.empty()) out.id = common::newUuid();
    return db_.transact([&](Tx& tx) -> plugin::Result<AnswerEvaluation> {
        const auto rows =
            tx.exec(kInsertEvaluation, out.id, out.trace_row_id, out.trace_id, out.evaluation_type,
                    out.score ? nlohmann::json(*out.score).dump() : std::string(),
                    out.metrics.dump(), out.details.dump(), out.created_by);
        out.created_at = isoTime(rows[0][0]);
        return out;
    });
}

}  // namespace docintel::storage

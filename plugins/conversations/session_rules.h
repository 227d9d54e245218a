#pragma once

// A conversation session's statuses and the transitions between them (docs/conversations.md
// "States and codes"): consent, turns, finish, approval and the processing that publishes the
// transcript, with the progress each step shows. Each transition checks, then applies; on an
// error the session is left as it was. Pure; thread-safe.

#include <optional>
#include <string>
#include <string_view>

#include "plugin_api/result.h"

namespace docintel::conversations {

enum class ConsentStatus { pending, confirmed, declined };
enum class ProcessingStatus { active, in_review, received, processing, completed, error };
enum class ProcessingStep {
    awaiting_consent,
    listening,
    consent_declined,
    transcript_review,
    queued,
    transcribing,
    saving_transcript,
    embedding,
    completed,
    failed
};
enum class ReviewStatus { draft, in_review, approved, withdrawn };

/// The wire names ("pending", "in_review", "saving_transcript", ...).
std::string toString(ConsentStatus v);
std::string toString(ProcessingStatus v);
std::string toString(ProcessingStep v);
std::string toString(ReviewStatus v);
/// The value a wire name stands for; std::nullopt for an unknown one.
std::optional<ConsentStatus> consentStatusFrom(std::string_view s);
std::optional<ProcessingStatus> processingStatusFrom(std::string_view s);
std::optional<ProcessingStep> processingStepFrom(std::string_view s);
std::optional<ReviewStatus> reviewStatusFrom(std::string_view s);

/// The statuses of one session as the store keeps them.
struct SessionStatus {
    ConsentStatus consent = ConsentStatus::pending;
    ProcessingStatus processing = ProcessingStatus::active;
    ProcessingStep step = ProcessingStep::awaiting_consent;
    ReviewStatus review = ReviewStatus::draft;
    int progress_pct = 0;
    int participant_turns = 0;  ///< turns the participant has made
};

/// Progress after consent (5), after the participant turn with sequence `seq`
/// (min(60, 10 + 5 * (seq + 1))), after finish (65), after approval (70), and at a processing
/// step (transcribing 20, saving_transcript 45, embedding 70, completed 100; others: nullopt).
constexpr int kProgressConsent = 5;
constexpr int kProgressFinish = 65;
constexpr int kProgressApprove = 70;
int progressAfterTurn(int seq);
std::optional<int> progressForStep(ProcessingStep step);

/// pending → confirmed: step listening, progress 5. Confirming again is a no-op; after a
/// decline 400 `consent_declined`.
plugin::Status confirmConsent(SessionStatus& s);
/// pending → declined: step consent_declined (the session takes nothing more). Declining again
/// is a no-op; after confirmation 409 `consent_already_confirmed`.
plugin::Status declineConsent(SessionStatus& s);

/// Whether a participant turn may be recorded: 400 `consent_declined`, 409 `consent_required`
/// before consent, 409 `session_not_active` once finished.
plugin::Status checkTurn(const SessionStatus& s);
/// checkTurn, then counts the turn and sets the progress for sequence `seq`.
plugin::Status recordTurn(SessionStatus& s, int seq);

/// active → in_review: step transcript_review, review in_review, progress 65. Needs confirmed
/// consent (400 `consent_declined` / 409 `consent_required`), an active session (409
/// `session_not_active`) and at least one participant turn (409 `no_turns`).
plugin::Status finish(SessionStatus& s);

/// in_review → received: step queued, review approved, progress 70. 409 `already_approved`
/// when approved before, 409 `not_in_review` before finish (or after withdrawal).
plugin::Status approve(SessionStatus& s);
/// Review draft/in_review → withdrawn (the transcript will not be published); 409
/// `already_approved` after approval.
plugin::Status withdraw(SessionStatus& s);

/// received/processing → processing at `step` (transcribing, saving_transcript, embedding), or
/// → completed at `completed`; steps only move forward. 409 `not_processing` when the session
/// is not approved or already done, 409 `invalid_step` for any other or a backward step.
plugin::Status advanceProcessing(SessionStatus& s, ProcessingStep step);
/// received/processing → error, step failed (progress kept); 409 `not_processing` otherwise.
plugin::Status failProcessing(SessionStatus& s);

}  // namespace docintel::conversations

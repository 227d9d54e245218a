#include "conversations/session_rules.h"

#include <algorithm>
#include <array>
#include <utility>

namespace docintel::conversations {

using plugin::Error;
using plugin::Status;

namespace {

template <typename E, std::size_t N>
std::string nameOf(const std::array<std::pair<E, const char*>, N>& names, E v) {
    for (const auto& [value, name] : names) {
        if (value == v) return name;
    }
    return {};
}

template <typename E, std::size_t N>
std::optional<E> valueOf(const std::array<std::pair<E, const char*>, N>& names,
                         std::string_view s) {
    for (const auto& [value, name] : names) {
        if (s == name) return value;
    }
    return std::nullopt;
}

constexpr std::array<std::pair<ConsentStatus, const char*>, 3> kConsent = {{
    {ConsentStatus::pending, "pending"},
    {ConsentStatus::confirmed, "confirmed"},
    {ConsentStatus::declined, "declined"},
}};
constexpr std::array<std::pair<ProcessingStatus, const char*>, 6> kProcessing = {{
    {ProcessingStatus::active, "active"},
    {ProcessingStatus::in_review, "in_review"},
    {ProcessingStatus::received, "received"},
    {ProcessingStatus::processing, "processing"},
    {ProcessingStatus::completed, "completed"},
    {ProcessingStatus::error, "error"},
}};
constexpr std::array<std::pair<ProcessingStep, const char*>, 10> kSteps = {{
    {ProcessingStep::awaiting_consent, "awaiting_consent"},
    {ProcessingStep::listening, "listening"},
    {ProcessingStep::consent_declined, "consent_declined"},
    {ProcessingStep::transcript_review, "transcript_review"},
    {ProcessingStep::queued, "queued"},
    {ProcessingStep::transcribing, "transcribing"},
    {ProcessingStep::saving_transcript, "saving_transcript"},
    {ProcessingStep::embedding, "embedding"},
    {ProcessingStep::completed, "completed"},
    {ProcessingStep::failed, "failed"},
}};
constexpr std::array<std::pair<ReviewStatus, const char*>, 4> kReview = {{
    {ReviewStatus::draft, "draft"},
    {ReviewStatus::in_review, "in_review"},
    {ReviewStatus::approved, "approved"},
    {ReviewStatus::withdrawn, "withdrawn"},
}};

Status consentGate(const SessionStatus& s) {
    if (s.consent == ConsentStatus::declined) {
        return Error::badRequest("consent_declined",
                                 "The participant declined consent; nothing can be recorded");
    }
    if (s.consent != ConsentStatus::confirmed) {
        return Error::conflict("consent_required", "Consent must be confirmed first");
    }
    return {};
}

bool isProcessing(const SessionStatus& s) {
    return s.processing == ProcessingStatus::received ||
           s.processing == ProcessingStatus::processing;
}

}  // namespace

std::string toString(ConsentStatus v) { return nameOf(kConsent, v); }
std::string toString(ProcessingStatus v) { return nameOf(kProcessing, v); }
std::string toString(ProcessingStep v) { return nameOf(kSteps, v); }
std::string toString(ReviewStatus v) { return nameOf(kReview, v); }
std::optional<ConsentStatus> consentStatusFrom(std::string_view s) { return valueOf(kConsent, s); }
std::optional<ProcessingStatus> processingStatusFrom(std::string_view s) {
    return valueOf(kProcessing, s);
}
std::optional<ProcessingStep> processingStepFrom(std::string_view s) { return valueOf(kSteps, s); }
std::optional<ReviewStatus> reviewStatusFrom(std::string_view s) { return valueOf(kReview, s); }

int progressAfterTurn(int seq) { return std::min(60, 10 + 5 * (std::max(seq, 0) + 1)); }

std::optional<int> progressForStep(ProcessingStep step) {
    switch (step) {
        case ProcessingStep::transcribing:
            return 20;
        case ProcessingStep::saving_transcript:
            return 45;
        case ProcessingStep::embedding:
            return 70;
        case ProcessingStep::completed:
            return 100;
        default:
            return std::nullopt;
    }
}

Status confirmConsent(SessionStatus& s) {
    if (s.consent == ConsentStatus::declined) {
        return Error::badRequest("consent_declined", "The participant declined consent");
    }
    if (s.consent == ConsentStatus::confirmed) return {};
    s.consent = ConsentStatus::confirmed;
    s.step = ProcessingStep::listening;
    s.progress_pct = kProgressConsent;
    return {};
}

Status declineConsent(SessionStatus& s) {
    if (s.consent == ConsentStatus::confirmed) {
        return Error::conflict("consent_already_confirmed", "Consent was already confirmed");
    }
    s.consent = ConsentStatus::declined;
    s.step = ProcessingStep::consent_declined;
    return {};
}

Status checkTurn(const SessionStatus& s) {
    if (auto gate = consentGate(s); !gate) return gate;
    if (s.processing != ProcessingStatus::active) {
        return Error::conflict("session_not_active",
                               "The conversation is finished; no more turns can be added");
    }
    return {};
}

Status recordTurn(SessionStatus& s, int seq) {
    if (auto ok = checkTurn(s); !ok) return ok;
    ++s.participant_turns;
    s.progress_pct = progressAfterTurn(seq);
    return {};
}

Status finish(SessionStatus& s) {
    if (auto gate = consentGate(s); !gate) return gate;
    if (s.processing != ProcessingStatus::active) {
        return Error::conflict("session_not_active", "The conversation is already finished");
    }
    if (s.participant_turns < 1) {
        return Error::conflict("no_turns", "The conversation has no participant turns yet");
    }
    s.processing = ProcessingStatus::in_review;
    s.step = ProcessingStep::transcript_review;
    s.review = ReviewStatus::in_review;
    s.progress_pct = kProgressFinish;
    return {};
}

Status approve(SessionStatus& s) {
    if (s.review == ReviewStatus::approved) {
        return Error::conflict("already_approved", "The transcript is already approved");
    }
    if (auto gate = consentGate(s); !gate) return gate;
    if (s.processing != ProcessingStatus::in_review || s.review != ReviewStatus::in_review) {
        return Error::conflict("not_in_review", "Finish the conversation before approving it");
    }
    s.processing = ProcessingStatus::received;
    s.step = ProcessingStep::queued;
    s.review = ReviewStatus::approved;
    s.progress_pct = kProgressApprove;
    return {};
}

Status withdraw(SessionStatus& s) {
    if (s.review == ReviewStatus::approved) {
        return Error::conflict("already_approved", "An approved transcript cannot be withdrawn");
    }
    s.review = ReviewStatus::withdrawn;
    return {};
}

Status advanceProcessing(SessionStatus& s, ProcessingStep step) {
    if (!isProcessing(s)) {
        return Error::conflict("not_processing", "The transcript is not being processed");
    }
    const auto pct = progressForStep(step);
    const auto rank = [](ProcessingStep st) { return static_cast<int>(st); };
    if (!pct || rank(step) < rank(s.step)) {
        return Error::conflict("invalid_step", "Processing cannot move to " + toString(step));
    }
    s.step = step;
    s.processing = step == ProcessingStep::completed ? ProcessingStatus::completed
                                                     : ProcessingStatus::processing;
    s.progress_pct = *pct;
    return {};
}

Status failProcessing(SessionStatus& s) {
    if (!isProcessing(s)) {
        return Error::conflict("not_processing", "The transcript is not being processed");
    }
    s.processing = ProcessingStatus::error;
    s.step = ProcessingStep::failed;
    return {};
}

}  // namespace docintel::conversations

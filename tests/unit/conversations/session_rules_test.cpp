// The session state machine: consent, turns, finish, approval, processing and progress.

#include <gtest/gtest.h>

#include "conversations/session_rules.h"

namespace docintel::conversations {
namespace {

void expectError(const plugin::Status& s, const std::string& code, int status) {
    ASSERT_FALSE(s.ok()) << "expected " << code;
    EXPECT_EQ(s.error().code, code);
    EXPECT_EQ(s.error().http_status, status);
}

TEST(ConversationSession, NamesRoundTrip) {
    EXPECT_EQ(toString(ProcessingStep::saving_transcript), "saving_transcript");
    EXPECT_EQ(toString(ProcessingStatus::in_review), "in_review");
    EXPECT_EQ(toString(ConsentStatus::declined), "declined");
    EXPECT_EQ(toString(ReviewStatus::withdrawn), "withdrawn");
    EXPECT_EQ(processingStepFrom("consent_declined"), ProcessingStep::consent_declined);
    EXPECT_EQ(processingStatusFrom("received"), ProcessingStatus::received);
    EXPECT_EQ(consentStatusFrom("confirmed"), ConsentStatus::confirmed);
    EXPECT_EQ(reviewStatusFrom("approved"), ReviewStatus::approved);
    EXPECT_FALSE(processingStepFrom("dancing").has_value());
    EXPECT_FALSE(reviewStatusFrom("").has_value());
}

TEST(ConversationSession, ProgressNumbers) {
    EXPECT_EQ(kProgressConsent, 5);
    EXPECT_EQ(progressAfterTurn(0), 15);
    EXPECT_EQ(progressAfterTurn(1), 20);
    EXPECT_EQ(progressAfterTurn(3), 30);
    EXPECT_EQ(progressAfterTurn(9), 60);
    EXPECT_EQ(progressAfterTurn(40), 60);
    EXPECT_EQ(kProgressFinish, 65);
    EXPECT_EQ(kProgressApprove, 70);
    EXPECT_EQ(progressForStep(ProcessingStep::transcribing), 20);
    EXPECT_EQ(progressForStep(ProcessingStep::saving_transcript), 45);
    EXPECT_EQ(progressForStep(ProcessingStep::embedding), 70);
    EXPECT_EQ(progressForStep(ProcessingStep::completed), 100);
    EXPECT_FALSE(progressForStep(ProcessingStep::listening).has_value());
}

TEST(ConversationSession, TurnBeforeConsentIsRefused) {
    SessionStatus s;
    EXPECT_EQ(s.step, ProcessingStep::awaiting_consent);
    expectError(checkTurn(s), "consent_required", 409);
    expectError(recordTurn(s, 1), "consent_required", 409);
    expectError(finish(s), "consent_required", 409);
    EXPECT_EQ(s.participant_turns, 0);
}

TEST(ConversationSession, DeclinedConsentEndsTheSession) {
    SessionStatus s;
    ASSERT_TRUE(declineConsent(s).ok());
    EXPECT_EQ(s.consent, ConsentStatus::declined);
    EXPECT_EQ(s.step, ProcessingStep::consent_declined);
    expectError(recordTurn(s, 1), "consent_declined", 400);
    expectError(finish(s), "consent_declined", 400);
    expectError(confirmConsent(s), "consent_declined", 400);
    EXPECT_TRUE(declineConsent(s).ok());
    EXPECT_EQ(s.participant_turns, 0);
}

TEST(ConversationSession, FullFlow) {
    SessionStatus s;
    ASSERT_TRUE(confirmConsent(s).ok());
    EXPECT_EQ(s.consent, ConsentStatus::confirmed);
    EXPECT_EQ(s.step, ProcessingStep::listening);
    EXPECT_EQ(s.progress_pct, 5);
    EXPECT_TRUE(confirmConsent(s).ok());  // idempotent
    expectError(declineConsent(s), "consent_already_confirmed", 409);

    expectError(finish(s), "no_turns", 409);
    ASSERT_TRUE(recordTurn(s, 1).ok());
    EXPECT_EQ(s.progress_pct, 20);
    ASSERT_TRUE(recordTurn(s, 3).ok());
    EXPECT_EQ(s.progress_pct, 30);
    EXPECT_EQ(s.participant_turns, 2);
    expectError(approve(s), "not_in_review", 409);

    ASSERT_TRUE(finish(s).ok());
    EXPECT_EQ(s.processing, ProcessingStatus::in_review);
    EXPECT_EQ(s.step, ProcessingStep::transcript_review);
    EXPECT_EQ(s.review, ReviewStatus::in_review);
    EXPECT_EQ(s.progress_pct, 65);
    expectError(recordTurn(s, 5), "session_not_active", 409);
    expectError(finish(s), "session_not_active", 409);
    EXPECT_EQ(s.participant_turns, 2);

    expectError(advanceProcessing(s, ProcessingStep::transcribing), "not_processing", 409);
    ASSERT_TRUE(approve(s).ok());
    EXPECT_EQ(s.processing, ProcessingStatus::received);
    EXPECT_EQ(s.step, ProcessingStep::queued);
    EXPECT_EQ(s.review, ReviewStatus::approved);
    EXPECT_EQ(s.progress_pct, 70);
    expectError(approve(s), "already_approved", 409);
    expectError(withdraw(s), "already_approved", 409);

    expectError(advanceProcessing(s, ProcessingStep::listening), "invalid_step", 409);
    ASSERT_TRUE(advanceProcessing(s, ProcessingStep::transcribing).ok());
    EXPECT_EQ(s.processing, ProcessingStatus::processing);
    EXPECT_EQ(s.progress_pct, 20);
    ASSERT_TRUE(advanceProcessing(s, ProcessingStep::saving_transcript).ok());
    EXPECT_EQ(s.progress_pct, 45);
    expectError(advanceProcessing(s, ProcessingStep::transcribing), "invalid_step", 409);
    ASSERT_TRUE(advanceProcessing(s, ProcessingStep::embedding).ok());
    EXPECT_EQ(s.progress_pct, 70);
    ASSERT_TRUE(advanceProcessing(s, ProcessingStep::completed).ok());
    EXPECT_EQ(s.processing, ProcessingStatus::completed);
    EXPECT_EQ(s.step, ProcessingStep::completed);
    EXPECT_EQ(s.progress_pct, 100);
    expectError(advanceProcessing(s, ProcessingStep::completed), "not_processing", 409);
    expectError(failProcessing(s), "not_processing", 409);
}

TEST(ConversationSession, FailureAndWithdrawal) {
    SessionStatus s;
    ASSERT_TRUE(confirmConsent(s).ok());
    ASSERT_TRUE(recordTurn(s, 1).ok());
    ASSERT_TRUE(finish(s).ok());
    ASSERT_TRUE(approve(s).ok());
    ASSERT_TRUE(advanceProcessing(s, ProcessingStep::transcribing).ok());
    ASSERT_TRUE(failProcessing(s).ok());
    EXPECT_EQ(s.processing, ProcessingStatus::error);
    EXPECT_EQ(s.step, ProcessingStep::failed);

    SessionStatus w;
    ASSERT_TRUE(confirmConsent(w).ok());
    ASSERT_TRUE(recordTurn(w, 1).ok());
    ASSERT_TRUE(finish(w).ok());
    ASSERT_TRUE(withdraw(w).ok());
    EXPECT_EQ(w.review, ReviewStatus::withdrawn);
    expectError(approve(w), "not_in_review", 409);
}

}  // namespace
}  // namespace docintel::conversations

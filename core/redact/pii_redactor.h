#pragma once

#include <array>
#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "redact/pii_type.h"

namespace docintel::redact {

/// One piece of personal data found in a text: bytes [start, end) of the UTF-8 text given to
/// detect() or Redactor::redact(), and the placeholder that replaces it ("[EMAIL_1]"; empty
/// from detect()).
struct PiiSpan {
    PiiType type = PiiType::kEmail;
    std::size_t start = 0;
    std::size_t end = 0;
    std::string placeholder;
};

/// A redacted text and the spans of the original it replaced, in text order.
struct Redaction {
    std::string text;
    std::vector<PiiSpan> spans;
};

/// The recognisers to run; all by default.
struct RedactionOptions {
    std::array<bool, kPiiTypeCount> enabled{true, true, true, true, true, true, true, true, true};
    bool isEnabled(PiiType type) const { return enabled[static_cast<std::size_t>(type)]; }
};

/// Every recogniser over `text`, overlaps resolved: where finds overlap, the one whose type
/// comes first in the priority order wins (context-bound MRN and DOB, then e-mail, IBAN,
/// card, SSN, IP, phone, address), a longer one breaking ties. Sorted by start;
/// no two overlap. Pure function; thread-safe.
std::vector<PiiSpan> detectPii(std::string_view text, const RedactionOptions& options = {});

/// Replaces personal data by typed placeholders numbered per distinct value: the first e-mail
/// address met becomes [EMAIL_1], the same address again [EMAIL_1], another one [EMAIL_2].
/// Values are compared normalised (e-mail case, phone/SSN/card digits, IBAN without spaces),
/// so "(212) 555-0147" and "212.555.0147" share a placeholder. The numbering carries over
/// every redact() call on the same object, so a document redacted page by page, or an answer
/// and its excerpts, name one person's data the same way throughout.
/// Not thread-safe: one object per text, document or answer.
class Redactor {
  public:
    explicit Redactor(RedactionOptions options = {}) : options_(options) {}

    Redaction redact(std::string_view text);
    /// The placeholder for a value of `type` (assigning the next number if new).
    std::string placeholderFor(PiiType type, std::string_view value);

  private:
    RedactionOptions options_;
    std::map<std::pair<PiiType, std::string>, std::string> placeholders_;
    std::array<int, kPiiTypeCount> counts_{};
};

/// The bytes [from, to) of `text` with every span (from a redaction of the whole `text`) that
/// reaches into them replaced by its placeholder — a span cut by the window's edge is still
/// replaced whole — so an excerpt shows the same placeholders as the redacted full text.
std::string redactExcerpt(std::string_view text, std::size_t from, std::size_t to,
                          const std::vector<PiiSpan>& spans);

}  // namespace docintel::redact

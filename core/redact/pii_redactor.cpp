#include "redact/pii_redactor.h"

#include <algorithm>

#include "redact/pii_recognizers.h"
#include "redact/text_scan.h"

namespace docintel::redact {

namespace {

/// Overlap priority, lower first. Context-bound finds (an MRN or a birth date named as such)
/// are the most specific; checksummed numbers beat shapes; addresses are the loosest.
int priority(PiiType type) {
    switch (type) {
        case PiiType::kMedicalRecord:
            return 0;
        case PiiType::kDateOfBirth:
            return 1;
        case PiiType::kEmail:
            return 2;
        case PiiType::kIban:
            return 3;
        case PiiType::kCreditCard:
            return 4;
        case PiiType::kSsn:
            return 5;
        case PiiType::kIpAddress:
            return 6;
        case PiiType::kPhone:
            return 7;
        case PiiType::kAddress:
            return 8;
    }
    return 9;
}

std::string normalise(PiiType type, std::string_view value) {
    std::string out;
    out.reserve(value.size());
    switch (type) {
        case PiiType::kPhone:
        case PiiType::kSsn:
        case PiiType::kCreditCard:
            for (char c : value) {
                if (scan::isDigit(c)) out.push_back(c);
            }
            // A leading US country code names the same line as the ten digits alone.
            if (type == PiiType::kPhone && out.size() == 11 && out[0] == '1') out.erase(0, 1);
            return out;
        case PiiType::kIban:
        case PiiType::kMedicalRecord:
            for (char c : value) {
                if (scan::isAlnum(c)) out.push_back(static_cast<char>(std::toupper(c)));
            }
            return out;
        default: {
            bool space = false;
            for (char c : value) {
                if (c == ' ' || c == '\n' || c == '\t' || c == ',') {
                    space = !out.empty();
                    continue;
                }
                if (space) out.push_back(' ');
                space = false;
                out.push_back(scan::lower(c));
            }
            return out;
        }
    }
}

}  // namespace

std::vector<PiiSpan> detectPii(std::string_view text, const RedactionOptions& options) {
    std::vector<PiiCandidate> found;
    using Finder = void (*)(std::string_view, std::vector<PiiCandidate>&);
    static constexpr std::array<std::pair<PiiType, Finder>, kPiiTypeCount> kFinders{{
        {PiiType::kEmail, findEmails},
        {PiiType::kPhone, findPhones},
        {PiiType::kSsn, findSsns},
        {PiiType::kCreditCard, findCreditCards},
        {PiiType::kIban, findIbans},
        {PiiType::kIpAddress, findIpAddresses},
        {PiiType::kDateOfBirth, findDatesOfBirth},
        {PiiType::kAddress, findAddresses},
        {PiiType::kMedicalRecord, findMedicalRecordNumbers},
    }};
    for (const auto& [type, finder] : kFinders) {
        if (options.isEnabled(type)) finder(text, found);
    }
    std::stable_sort(found.begin(), found.end(), [](const PiiCandidate& a, const PiiCandidate& b) {
        if (priority(a.type) != priority(b.type)) return priority(a.type) < priority(b.type);
        return a.end - a.start > b.end - b.start;
    });
    std::vector<PiiSpan> kept;
    for (const auto& c : found) {
        if (c.end <= c.start) continue;
        const bool overlaps = std::any_of(kept.begin(), kept.end(), [&](const PiiSpan& k) {
            return c.start < k.end && k.start < c.end;
        });
        if (!overlaps) kept.push_back({c.type, c.start, c.end, {}});
    }
    std::sort(kept.begin(), kept.end(),
              [](const PiiSpan& a, const PiiSpan& b) { return a.start < b.start; });
    return kept;
}

std::string Redactor::placeholderFor(PiiType type, std::string_view value) {
    auto key = std::make_pair(type, normalise(type, value));
    auto it = placeholders_.find(key);
    if (it != placeholders_.end()) return it->second;
    const int n = ++counts_[static_cast<std::size_t>(type)];
    std::string placeholder = "[" + toString(type) + "_" + std::to_string(n) + "]";
    placeholders_.emplace(std::move(key), placeholder);
    return placeholder;
}

Redaction Redactor::redact(std::string_view text) {
    Redaction out;
    out.spans = detectPii(text, options_);
    out.text.reserve(text.size());
    std::size_t copied = 0;
    for (auto& span : out.spans) {
        span.placeholder =
            placeholderFor(span.type, text.substr(span.start, span.end - span.start));
        out.text.append(text.substr(copied, span.start - copied));
        out.text.append(span.placeholder);
        copied = span.end;
    }
    out.text.append(text.substr(copied));
    return out;
}

std::string redactExcerpt(std::string_view text, std::size_t from, std::size_t to,
                          const std::vector<PiiSpan>& spans) {
    to = std::min(to, text.size());
    from = std::min(from, to);
    std::string out;
    std::size_t copied = from;
    for (const auto& span : spans) {
        if (span.end <= from || span.start >= to) continue;
        const std::size_t start = std::max(span.start, from);
        if (start > copied) out.append(text.substr(copied, start - copied));
        out.append(span.placeholder);
        copied = std::min(span.end, to);
    }
    if (copied < to) out.append(text.substr(copied, to - copied));
    return out;
}

}  // namespace docintel::redact

#pragma once

// Small documents the knowledge suites upload as text (answers, sessions, LLM mode, summaries).

namespace docintel::test {

/// A commercial lease: rent, late fee, deposit and term, each on a page the answers cite.
inline constexpr const char* kLeaseText =
    "Commercial Lease Agreement\n\n"
    "The Tenant shall pay a monthly base rent of $4,500, due on the first day of each month. A "
    "late fee of 5% applies to payments received after the tenth day.\n\n"
    "The security deposit is $9,000 and is returned within 30 days after the lease ends.\n\n"
    "The initial term is five years, starting on March 1, 2025.";

/// The renewal sentence some suites append to kLeaseText.
inline constexpr const char* kLeaseRenewal =
    " The Tenant may renew for one additional term of three years by giving six months' "
    "written notice.";

}  // namespace docintel::test

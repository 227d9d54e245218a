#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "redact/pii_type.h"

namespace docintel::redact {

/// A recogniser's find: bytes [start, end) of the text, possibly overlapping other finds.
struct PiiCandidate {
    PiiType type = PiiType::kEmail;
    std::size_t start = 0;
    std::size_t end = 0;
};

// Each recogniser appends what it finds in `text` to `out`. They are pure functions, one pass
// over the text each, driven by the bytes a match must contain ('@', digits, ':', cue words),
// and validate what they find (checksums, number ranges, context) before reporting it.

/// local@domain.tld, the domain with at least one dot and an alphabetic TLD.
void findEmails(std::string_view text, std::vector<PiiCandidate>& out);
/// US numbers (10 digits as (NXX) NXX-XXXX, NXX-NXX-XXXX, NXX.NXX.XXXX, NXX NXX XXXX, with an
/// optional leading 1) and international ones written with + or 00 (8–15 digits). Unseparated
/// or national (leading 0) numbers only after a phone cue; numbers after an order, part, ISBN
/// or similar cue are skipped.
void findPhones(std::string_view text, std::vector<PiiCandidate>& out);
/// NNN-NN-NNNN (or spaced) outside the never-issued ranges (area 000, 666, 900–999; group 00;
/// serial 0000); nine bare digits only after an SSN cue.
void findSsns(std::string_view text, std::vector<PiiCandidate>& out);
/// 13–19 digits, bare or in the usual groups, with a card-network prefix and a valid Luhn sum.
void findCreditCards(std::string_view text, std::vector<PiiCandidate>& out);
/// IBANs, compact or in groups of four, with the country's length and a valid mod-97 check.
void findIbans(std::string_view text, std::vector<PiiCandidate>& out);
/// IPv4 (dotted quad, octets 0–255) and IPv6 (checked with inet_pton).
void findIpAddresses(std::string_view text, std::vector<PiiCandidate>& out);
/// Dates (numeric, ISO, or with month names) within a few words after a birth cue: DOB,
/// D.O.B., date of birth, birth date, birthdate, born.
void findDatesOfBirth(std::string_view text, std::vector<PiiCandidate>& out);
/// US street addresses: number, street name, street suffix, optional direction and unit, and
/// an optional city, state and ZIP on the same or the next line; also P.O. boxes.
void findAddresses(std::string_view text, std::vector<PiiCandidate>& out);
/// The identifier after an MRN cue (MRN, medical record number/no./#, med rec).
void findMedicalRecordNumbers(std::string_view text, std::vector<PiiCandidate>& out);

/// Luhn checksum over the digits of `digits` (other bytes ignored).
bool luhnValid(std::string_view digits);
/// Mod-97 check and per-country length of a compact IBAN (upper case, no spaces).
bool ibanValid(std::string_view compact);
/// Whether area-group-serial could have been issued as an SSN.
bool ssnValid(int area, int group, int serial);

}  // namespace docintel::redact

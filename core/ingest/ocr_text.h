#pragma once

#include <string>

namespace docintel::ingest {

/// `text` as Tesseract recognised it with the confusions that its language model cannot put
/// right from context, where the right word is known: a capital I read as a lower-case l at the
/// start of a US state's name ("lowa", "lllinois", "ldaho", "lndiana"), which addresses and
/// governing-law clauses of scanned documents name. Pure; thread-safe.
std::string correctedOcrText(std::string text);

}  // namespace docintel::ingest

#pragma once

#include <string>
#include <vector>

#include "storage/document_repository.h"

namespace docintel::knowledge {

/// A sentence of a chunk: bytes [start, end) of the chunk's text, white space trimmed.
struct SentenceSpan {
    int start = 0;
    int end = 0;
    std::string text;
};

/// The sentences of a chunk's text an answer or a summary may quote, the too short and too long
/// left out. ICU sentence boundaries, repaired where real documents break them:
/// - a break after an abbreviation or an initial ("No. 07-1315", "Vol. 85", "Lance T. Gant",
///   "Cal.; on behalf") is no sentence end;
/// - a line that wraps (40 bytes or more, ending in a letter, digit or comma, neither it nor the
///   next a "Label:" line or a table row) runs on into the next line, as a transcript's or a
///   form's numbered lines do ("16 STEVEN E. MERCER, ESQ., Deputy Attorney General, Los" /
///   "17 Angeles, Cal.; on behalf of the Petitioner.");
/// - a label alone on its line ("Deliver to:") goes on with the value on the next line, unless
///   that line is a label or a table row of its own;
/// - an over-long run of records flattened into one paragraph (a PDF table read as text) is
///   cut before each record's key: the identifier shape it repeats ("DHAW20190001 … DHAW20190002").
/// `skip_heading`: a chunk that opens with its section's heading (the chunker puts the heading
/// text first) does not quote it as part of the first sentence. Pure; thread-safe.
std::vector<SentenceSpan> quotableSentences(const storage::Chunk& chunk, bool skip_heading = false);

}  // namespace docintel::knowledge

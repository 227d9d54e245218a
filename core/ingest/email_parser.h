#pragma once

#include <string>

#include "ingest/parser.h"

namespace docintel::ingest {

/// RFC 822/MIME mail (also a whole file in UTF-16 with BOM). The first block holds From, To,
/// Cc, Subject and Date; then the body (text/plain preferred over text/html in an alternative);
/// then each text attachment as a section headed "Attachment: <name>". Base64 and
/// quoted-printable are decoded and charsets converted to UTF-8. The title is the Subject.
/// Errors: unreadable_document. Never throws.
Result<ParsedDocument> parseEmail(const std::string& path);

}  // namespace docintel::ingest

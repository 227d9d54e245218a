#pragma once

#include <Poco/Net/Context.h>

namespace docintel::common {

/// The process-wide TLS client context for outbound HTTPS (webhooks, the LLM server): system CA
/// certificates, peer verified. Initialises Poco's SSL library on first use.
Poco::Net::Context::Ptr tlsClientContext();

}  // namespace docintel::common

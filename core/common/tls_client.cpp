#include "common/tls_client.h"

#include <mutex>

#include <Poco/Net/SSLManager.h>

namespace docintel::common {

Poco::Net::Context::Ptr tlsClientContext() {
    static std::once_flag once;
    static Poco::Net::Context::Ptr context;
    std::call_once(once, [] {
        Poco::Net::initializeSSL();
        context = new Poco::Net::Context(Poco::Net::Context::TLS_CLIENT_USE, "", "", "",
                                         Poco::Net::Context::VERIFY_RELAXED, 9, true);
    });
    return context;
}

}  // namespace docintel::common

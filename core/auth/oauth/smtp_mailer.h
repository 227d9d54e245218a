#pragma once

#include <string>

#include "auth/oauth/oauth_settings.h"
#include "plugin_api/result.h"

namespace docintel::auth::oauth {

/// Sends plain-text mail through one SMTP server (Poco::Net::SMTPClientSession), a new
/// connection per message. Thread-safe (no shared state).
class SmtpMailer {
  public:
    explicit SmtpMailer(SmtpSettings settings) : settings_(std::move(settings)) {}

    bool configured() const { return !settings_.host.empty(); }

    /// `mail_unavailable` (503) when no server is configured or the server refused; the
    /// message never contains the mail body.
    plugin::Status send(const std::string& to, const std::string& subject,
                        const std::string& body) const;

  private:
    const SmtpSettings settings_;
};

}  // namespace docintel::auth::oauth

#include "auth/oauth/smtp_mailer.h"

#include <Poco/Net/MailMessage.h>
#include <Poco/Net/MailRecipient.h>
#include <Poco/Net/SMTPClientSession.h>
#include <Poco/Net/SocketAddress.h>
#include <Poco/Net/StreamSocket.h>

#include "common/log.h"

namespace docintel::auth::oauth {

plugin::Status SmtpMailer::send(const std::string& to, const std::string& subject,
                                const std::string& body) const {
    if (!configured()) {
        return plugin::Error::unavailable("mail_unavailable", "no SMTP server is configured");
    }
    try {
        Poco::Net::StreamSocket socket;
        socket.connect(
            Poco::Net::SocketAddress(settings_.host, static_cast<Poco::UInt16>(settings_.port)),
            Poco::Timespan(settings_.timeout_seconds, 0));
        Poco::Net::SMTPClientSession session(socket);
        session.setTimeout(Poco::Timespan(settings_.timeout_seconds, 0));
        if (settings_.username.empty()) {
            session.login();
        } else {
            session.login(Poco::Net::SMTPClientSession::AUTH_LOGIN, settings_.username,
                          settings_.password);
        }
        Poco::Net::MailMessage message;
        message.setSender(settings_.from);
        message.addRecipient(
            Poco::Net::MailRecipient(Poco::Net::MailRecipient::PRIMARY_RECIPIENT, to));
        message.setSubject(subject);
        message.setContentType("text/plain; charset=UTF-8");
        message.setContent(body, Poco::Net::MailMessage::ENCODING_8BIT);
        session.sendMessage(message);
        session.close();
    } catch (const std::exception& e) {
        common::log(common::LogLevel::kWarning, "smtp_send_failed",
                    {{"host", settings_.host}, {"what", e.what()}});
        return plugin::Error::unavailable("mail_unavailable", "the e-mail could not be sent");
    }
    return {};
}

}  // namespace docintel::auth::oauth

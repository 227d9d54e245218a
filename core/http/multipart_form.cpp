#include "http/multipart_form.h"

#include <Poco/Net/MessageHeader.h>
#include <Poco/Net/MultipartReader.h>
#include <Poco/Net/NameValueCollection.h>

#include <algorithm>
#include <cctype>
#include <iterator>
#include <sstream>

namespace docintel::http {
namespace {

constexpr int kMaxParts = 100;

std::string mediaType(const std::string& content_type, Poco::Net::NameValueCollection& params) {
    std::string type;
    Poco::Net::MessageHeader::splitParameters(content_type, type, params);
    std::transform(type.begin(), type.end(), type.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    while (!type.empty() && type.back() == ' ') type.pop_back();
    return type;
}

}  // namespace

bool isMultipartForm(const std::string& content_type) {
    Poco::Net::NameValueCollection params;
    return mediaType(content_type, params) == "multipart/form-data";
}

std::optional<MultipartForm> parseMultipartForm(const std::string& content_type,
                                                const std::string& body) {
    Poco::Net::NameValueCollection params;
    if (mediaType(content_type, params) != "multipart/form-data") return std::nullopt;
    const std::string boundary = params.get("boundary", "");
    if (boundary.empty() || boundary.size() > 200) return std::nullopt;
    // Poco reads a part up to the next boundary; without the closing one it stops at the end
    // of the stream, so a cut body is recognised by the missing "--boundary--".
    if (body.find("--" + boundary + "--") == std::string::npos) return std::nullopt;
    MultipartForm form;
    try {
        std::istringstream in(body);
        Poco::Net::MultipartReader reader(in, boundary);
        int parts = 0;
        while (reader.hasNextPart()) {
            if (++parts > kMaxParts) return std::nullopt;
            Poco::Net::MessageHeader header;
            reader.nextPart(header);
            std::string data((std::istreambuf_iterator<char>(reader.stream())),
                             std::istreambuf_iterator<char>());
            std::string disposition;
            Poco::Net::NameValueCollection dparams;
            Poco::Net::MessageHeader::splitParameters(header.get("Content-Disposition", ""),
                                                      disposition, dparams);
            const std::string name = dparams.get("name", "");
            if (name.empty()) return std::nullopt;
            if (dparams.has("filename")) {
                form.files.push_back({name, dparams.get("filename", ""),
                                      header.get("Content-Type", "application/octet-stream"),
                                      std::move(data)});
            } else if (!form.fields.contains(name)) {
                form.fields[name] = std::move(data);
            }
        }
    } catch (const Poco::Exception&) {
        return std::nullopt;
    }
    return form;
}

}  // namespace docintel::http

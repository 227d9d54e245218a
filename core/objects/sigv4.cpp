#include "objects/sigv4.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include "common/digest.h"

namespace docintel::objects {

namespace {

constexpr const char* kAlgorithm = "AWS4-HMAC-SHA256";

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

/// A header value as signed: trimmed, inner runs of spaces one space.
std::string trimmedValue(const std::string& value) {
    std::string out;
    bool space = false;
    for (const char c : value) {
        if (c == ' ' || c == '\t') {
            space = !out.empty();
            continue;
        }
        if (space) out += ' ';
        space = false;
        out += c;
    }
    return out;
}

std::string scope(const SigV4Key& key, const std::string& amz_date) {
    return amz_date.substr(0, 8) + "/" + key.region + "/" + key.service + "/aws4_request";
}

/// `name;name;...` of the signed headers, sorted, lower-case.
std::string signedHeaders(const SigV4Request& request) {
    std::vector<std::string> names;
    for (const auto& [name, value] : request.headers) names.push_back(lower(name));
    std::sort(names.begin(), names.end());
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ";") + n;
    return out;
}

}  // namespace

std::string uriEncode(const std::string& text, bool keep_slash) {
    static constexpr char kDigits[] = "0123456789ABCDEF";
    std::string out;
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~' ||
            (keep_slash && c == '/')) {
            out += ch;
        } else {
            out += '%';
            out += kDigits[c >> 4];
            out += kDigits[c & 0x0F];
        }
    }
    return out;
}

std::string canonicalRequest(const SigV4Request& r) {
    std::vector<std::pair<std::string, std::string>> query;
    for (const auto& [name, value] : r.query) {
        query.emplace_back(uriEncode(name, false), uriEncode(value, false));
    }
    std::sort(query.begin(), query.end());
    std::string query_text;
    for (const auto& [name, value] : query) {
        query_text += (query_text.empty() ? "" : "&") + name + "=" + value;
    }
    std::vector<std::pair<std::string, std::string>> headers;
    for (const auto& [name, value] : r.headers)
        headers.emplace_back(lower(name), trimmedValue(value));
    std::sort(headers.begin(), headers.end());
    std::string header_text;
    for (const auto& [name, value] : headers) header_text += name + ":" + value + "\n";
    return r.method + "\n" + uriEncode(r.path.empty() ? "/" : r.path, true) + "\n" + query_text +
           "\n" + header_text + "\n" + signedHeaders(r) + "\n" + r.payload_hash;
}

std::string stringToSign(const SigV4Key& key, const std::string& amz_date,
                         const std::string& canonical_request) {
    return std::string(kAlgorithm) + "\n" + amz_date + "\n" + scope(key, amz_date) + "\n" +
           common::toHex(common::sha256(canonical_request));
}

std::string signature(const SigV4Key& key, const std::string& amz_date,
                      const std::string& string_to_sign) {
    const std::string date_key = common::hmacSha256("AWS4" + key.secret_key, amz_date.substr(0, 8));
    const std::string region_key = common::hmacSha256(date_key, key.region);
    const std::string service_key = common::hmacSha256(region_key, key.service);
    const std::string signing_key = common::hmacSha256(service_key, "aws4_request");
    return common::toHex(common::hmacSha256(signing_key, string_to_sign));
}

std::string authorization(const SigV4Key& key, const SigV4Request& request,
                          const std::string& amz_date) {
    const std::string sts = stringToSign(key, amz_date, canonicalRequest(request));
    return std::string(kAlgorithm) + " Credential=" + key.access_key + "/" + scope(key, amz_date) +
           ", SignedHeaders=" + signedHeaders(request) +
           ", Signature=" + signature(key, amz_date, sts);
}

std::string presignedUrl(const SigV4Key& key, SigV4Request request, const std::string& endpoint,
                         const std::string& amz_date, long long expires_seconds) {
    request.payload_hash = "UNSIGNED-PAYLOAD";
    request.query["X-Amz-Algorithm"] = kAlgorithm;
    request.query["X-Amz-Credential"] = key.access_key + "/" + scope(key, amz_date);
    request.query["X-Amz-Date"] = amz_date;
    request.query["X-Amz-Expires"] = std::to_string(expires_seconds);
    request.query["X-Amz-SignedHeaders"] = signedHeaders(request);
    const std::string sig =
        signature(key, amz_date, stringToSign(key, amz_date, canonicalRequest(request)));
    std::string url = endpoint + uriEncode(request.path.empty() ? "/" : request.path, true) + "?";
    bool first = true;
    for (const auto& [name, value] : request.query) {
        url += (first ? "" : "&") + uriEncode(name, false) + "=" + uriEncode(value, false);
        first = false;
    }
    return url + "&X-Amz-Signature=" + sig;
}

}  // namespace docintel::objects

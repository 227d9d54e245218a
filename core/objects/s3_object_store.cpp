#include "objects/s3_object_store.h"

#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/Net/HTTPSClientSession.h>
#include <Poco/StreamCopier.h>
#include <Poco/URI.h>

#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "common/digest.h"
#include "common/id.h"
#include "common/tls_client.h"

namespace docintel::objects {
namespace {

namespace fs = std::filesystem;

constexpr const char* kEmptyHash =
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

/// Now as SigV4 writes it: YYYYMMDDTHHMMSSZ.
std::string amzDate() {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char buf[20];
    std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &utc);
    return buf;
}

/// The text of every `<tag>` element of an S3 XML answer, with XML's five entities decoded.
std::vector<std::string> elements(const std::string& xml, const std::string& tag) {
    std::vector<std::string> out;
    const std::string open = "<" + tag + ">";
    const std::string close = "</" + tag + ">";
    for (std::size_t at = xml.find(open); at != std::string::npos; at = xml.find(open, at)) {
        at += open.size();
        const std::size_t end = xml.find(close, at);
        if (end == std::string::npos) break;
        std::string text = xml.substr(at, end - at);
        std::string decoded;
        for (std::size_t i = 0; i < text.size(); ++i) {
            static const std::pair<const char*, char> kEntities[] = {
                {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}};
            bool replaced = false;
            for (const auto& [entity, ch] : kEntities) {
                if (text.compare(i, std::strlen(entity), entity) == 0) {
                    decoded += ch;
                    i += std::strlen(entity) - 1;
                    replaced = true;
                    break;
                }
            }
            if (!replaced) decoded += text[i];
        }
        out.push_back(std::move(decoded));
        at = end + close.size();
    }
    return out;
}

plugin::Error unavailable(const std::string& what) {
    return plugin::Error::unavailable("object_store_unavailable", "the object store " + what);
}

}  // namespace

S3ObjectStore::S3ObjectStore(S3Settings settings)
    : settings_(std::move(settings)),
      sigv4_{settings_.access_key, settings_.secret_key, settings_.region, "s3"} {
    fs::create_directories(fs::path(settings_.cache_dir) / "staging");
}

std::string S3ObjectStore::pathOf(const std::string& key) const {
    if (settings_.path_style) return "/" + settings_.bucket + (key.empty() ? "" : "/" + key);
    return "/" + key;
}

std::string S3ObjectStore::hostHeader() const {
    const Poco::URI uri(settings_.endpoint);
    std::string host = uri.getHost();
    if (!settings_.path_style) host = settings_.bucket + "." + host;
    const bool default_port = (uri.getScheme() == "http" && uri.getPort() == 80) ||
                              (uri.getScheme() == "https" && uri.getPort() == 443);
    return default_port ? host : host + ":" + std::to_string(uri.getPort());
}

plugin::Result<S3ObjectStore::Response> S3ObjectStore::send(
    const std::string& method, const std::string& key,
    const std::map<std::string, std::string>& query, std::map<std::string, std::string> headers,
    const std::string& body_file, const std::string& payload_hash,
    const std::string& download_to) const {
    SigV4Request signed_request;
    signed_request.method = method;
    signed_request.path = pathOf(key);
    signed_request.query = query;
    signed_request.payload_hash = payload_hash.empty() ? kEmptyHash : payload_hash;
    const std::string date = amzDate();
    headers["host"] = hostHeader();
    headers["x-amz-date"] = date;
    headers["x-amz-content-sha256"] = signed_request.payload_hash;
    signed_request.headers = headers;
    const std::string authorization = objects::authorization(sigv4_, signed_request, date);

    std::string target = uriEncode(signed_request.path, true);
    bool first = true;
    for (const auto& [name, value] : query) {
        target += (first ? "?" : "&") + uriEncode(name, false) + "=" + uriEncode(value, false);
        first = false;
    }
    try {
        const Poco::URI endpoint(settings_.endpoint);
        std::unique_ptr<Poco::Net::HTTPClientSession> session;
        if (endpoint.getScheme() == "https") {
            session = std::make_unique<Poco::Net::HTTPSClientSession>(
                endpoint.getHost(), endpoint.getPort(), common::tlsClientContext());
        } else {
            session = std::make_unique<Poco::Net::HTTPClientSession>(endpoint.getHost(),
                                                                     endpoint.getPort());
        }
        session->setTimeout(Poco::Timespan(60, 0));
        Poco::Net::HTTPRequest request(method, target, Poco::Net::HTTPMessage::HTTP_1_1);
        for (const auto& [name, value] : headers) request.set(name, value);
        request.set("Authorization", authorization);
        if (!body_file.empty()) {
            std::ifstream in(body_file, std::ios::binary);
            request.setContentLength(static_cast<std::streamsize>(fs::file_size(body_file)));
            std::ostream& out = session->sendRequest(request);
            Poco::StreamCopier::copyStream(in, out);
        } else {
            if (method == "PUT" || method == "POST") request.setContentLength(0);
            session->sendRequest(request);
        }
        Poco::Net::HTTPResponse response;
        std::istream& in = session->receiveResponse(response);
        Response out;
        out.status = static_cast<int>(response.getStatus());
        for (const auto& [name, value] : response) {
            std::string lower = name;
            for (auto& c : lower)
                c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            out.headers[lower] = value;
        }
        if (!download_to.empty() && out.status == 200) {
            std::ofstream file(download_to, std::ios::binary | std::ios::trunc);
            Poco::StreamCopier::copyStream(in, file);
            if (!file) return unavailable("copy could not be written");
        } else {
            Poco::StreamCopier::copyToString(in, out.body);
        }
        return out;
    } catch (const Poco::Exception& e) {
        return unavailable("is unreachable: " + e.displayText());
    } catch (const std::exception& e) {
        return unavailable(std::string("request failed: ") + e.what());
    }
}

plugin::Status S3ObjectStore::ensureBucket() {
    auto head = send("HEAD", "", {}, {});
    if (!head) return head.error();
    if (head->status == 200) return {};
    auto created = send("PUT", "", {}, {});
    if (!created) return created.error();
    if (created->status == 200 || created->status == 409) return {};
    return unavailable("refused to create bucket " + settings_.bucket + " (HTTP " +
                       std::to_string(created->status) + ")");
}

plugin::Result<ObjectInfo> S3ObjectStore::put(const std::string& key, std::istream& in,
                                              std::int64_t expected_size,
                                              const std::string& content_type) {
    if (!LocalObjectStore::validKey(key)) {
        return plugin::Error::badRequest("invalid_key", "invalid object key");
    }
    const std::string staged =
        (fs::path(settings_.cache_dir) / "staging" / common::randomToken(12)).string();
    auto info = stageStream(in, expected_size, staged, content_type);
    if (!info) return info.error();
    auto sent =
        send("PUT", key, {},
             {{"content-type", content_type.empty() ? "application/octet-stream" : content_type},
              {"x-amz-meta-sha256", info->sha256}},
             staged, info->sha256);
    std::error_code ec;
    fs::remove(staged, ec);
    if (!sent) return sent.error();
    if (sent->status != 200) {
        return unavailable("refused the object (HTTP " + std::to_string(sent->status) + ")");
    }
    fs::remove(fs::path(settings_.cache_dir) / "objects" / key, ec);  // a stale local copy
    return *info;
}

std::optional<ObjectInfo> S3ObjectStore::stat(const std::string& key) const {
    if (!LocalObjectStore::validKey(key)) return std::nullopt;
    auto head = send("HEAD", key, {}, {});
    if (!head || head->status != 200) return std::nullopt;
    ObjectInfo info;
    try {
        info.size = std::stoll(head->headers["content-length"]);
    } catch (const std::exception&) {
        return std::nullopt;
    }
    info.sha256 = head->headers["x-amz-meta-sha256"];
    info.content_type = head->headers["content-type"];
    return info;
}

std::string S3ObjectStore::localPath(const std::string& key) const {
    const auto info = stat(key);
    if (!info) return {};
    const fs::path copy = fs::path(settings_.cache_dir) / "objects" / key;
    std::error_code ec;
    if (fs::exists(copy, ec) && static_cast<std::int64_t>(fs::file_size(copy, ec)) == info->size) {
        return copy.string();
    }
    fs::create_directories(copy.parent_path(), ec);
    const std::string partial = copy.string() + ".download-" + common::randomToken(6);
    auto got = send("GET", key, {}, {}, {}, {}, partial);
    if (!got || got->status != 200 ||
        static_cast<std::int64_t>(fs::file_size(partial, ec)) != info->size) {
        fs::remove(partial, ec);
        return {};
    }
    fs::rename(partial, copy, ec);
    return ec ? std::string() : copy.string();
}

bool S3ObjectStore::remove(const std::string& key) {
    if (!stat(key)) return false;
    auto gone = send("DELETE", key, {}, {});
    std::error_code ec;
    fs::remove(fs::path(settings_.cache_dir) / "objects" / key, ec);
    return gone && (gone->status == 204 || gone->status == 200);
}

std::size_t S3ObjectStore::removePrefix(const std::string& prefix) {
    if (prefix.empty() || prefix.back() != '/' ||
        !LocalObjectStore::validKey(prefix.substr(0, prefix.size() - 1))) {
        return 0;
    }
    std::size_t removed = 0;
    std::string token;
    for (int page = 0; page < 10000; ++page) {
        std::map<std::string, std::string> query{{"list-type", "2"}, {"prefix", prefix}};
        if (!token.empty()) query["continuation-token"] = token;
        auto listed = send("GET", "", query, {});
        if (!listed || listed->status != 200) break;
        for (const auto& key : elements(listed->body, "Key")) {
            auto gone = send("DELETE", key, {}, {});
            if (gone && (gone->status == 204 || gone->status == 200)) ++removed;
        }
        const auto truncated = elements(listed->body, "IsTruncated");
        const auto next = elements(listed->body, "NextContinuationToken");
        if (truncated.empty() || truncated[0] != "true" || next.empty()) break;
        token = next[0];
    }
    std::error_code ec;
    fs::remove_all(fs::path(settings_.cache_dir) / "objects" / prefix, ec);
    return removed;
}

std::string S3ObjectStore::presignedUrl(const std::string& method, const std::string& key,
                                        const std::string& content_type, std::int64_t size,
                                        int ttl_seconds) const {
    SigV4Request request;
    request.method = method;
    request.path = pathOf(key);
    request.headers["host"] = hostHeader();
    if (method == "PUT") {
        request.headers["content-type"] = content_type;
        request.headers["content-length"] = std::to_string(size);
    }
    std::string endpoint = settings_.endpoint;
    if (!settings_.path_style) {
        const Poco::URI uri(settings_.endpoint);
        endpoint = uri.getScheme() + "://" + hostHeader();
    }
    while (!endpoint.empty() && endpoint.back() == '/') endpoint.pop_back();
    return objects::presignedUrl(sigv4_, request, endpoint, amzDate(), ttl_seconds);
}

}  // namespace docintel::objects

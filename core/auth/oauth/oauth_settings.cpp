#include "auth/oauth/oauth_settings.h"

#include <algorithm>
#include <sstream>

namespace docintel::auth::oauth {

std::vector<std::string> splitScope(const std::string& scope) {
    std::vector<std::string> out;
    std::istringstream in(scope);
    std::string s;
    while (in >> s) {
        if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
    }
    return out;
}

std::string joinScope(const std::vector<std::string>& scopes) {
    std::string out;
    for (const auto& s : scopes) out += (out.empty() ? "" : " ") + s;
    return out;
}

std::vector<std::string> intersect(const std::vector<std::string>& a,
                                   const std::vector<std::string>& b) {
    std::vector<std::string> out;
    for (const auto& s : a) {
        if (std::find(b.begin(), b.end(), s) != b.end()) out.push_back(s);
    }
    return out;
}

std::vector<std::string> difference(const std::vector<std::string>& a,
                                    const std::vector<std::string>& b) {
    std::vector<std::string> out;
    for (const auto& s : a) {
        if (std::find(b.begin(), b.end(), s) == b.end()) out.push_back(s);
    }
    return out;
}

std::string withoutTrailingSlash(std::string url) {
    while (!url.empty() && url.back() == '/') url.pop_back();
    return url;
}

}  // namespace docintel::auth::oauth

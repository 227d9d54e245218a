#include "common/mustache.h"

#include <cmath>
#include <optional>
#include <vector>

namespace docintel::common {
namespace {

using Stack = std::vector<const nlohmann::json*>;

const nlohmann::json kNull;

plugin::Error templateError(const std::string& message) {
    return plugin::Error::unprocessable("template_error", message);
}

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos) return {};
    return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

// Looks `name` up from the innermost context outwards; the first part of a dotted name
// decides the context, the rest walks down from there.
const nlohmann::json& lookup(const Stack& stack, const std::string& name) {
    if (name == ".") return *stack.back();
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (true) {
        const auto dot = name.find('.', start);
        parts.push_back(name.substr(start, dot - start));
        if (dot == std::string::npos) break;
        start = dot + 1;
    }
    for (auto it = stack.rbegin(); it != stack.rend(); ++it) {
        const nlohmann::json& ctx = **it;
        if (!ctx.is_object() || !ctx.contains(parts[0])) continue;
        const nlohmann::json* value = &ctx.at(parts[0]);
        for (std::size_t i = 1; i < parts.size(); ++i) {
            if (!value->is_object() || !value->contains(parts[i])) return kNull;
            value = &value->at(parts[i]);
        }
        return *value;
    }
    return kNull;
}

bool truthy(const nlohmann::json& v) {
    if (v.is_null()) return false;
    if (v.is_boolean()) return v.get<bool>();
    if (v.is_string()) return !v.get<std::string>().empty();
    if (v.is_number()) return v.get<double>() != 0;
    if (v.is_array()) return !v.empty();
    return true;
}

std::string toText(const nlohmann::json& v) {
    if (v.is_null()) return {};
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number_float()) {
        const double d = v.get<double>();
        if (std::floor(d) == d && std::fabs(d) < 1e15) {
            return std::to_string(static_cast<long long>(d));
        }
    }
    return v.dump();
}

struct Tag {
    char kind = 0;  // 0 variable, '&' raw, '#', '^', '/', '!'
    std::string name;
    std::size_t begin = 0;  // position of "{{"
    std::size_t end = 0;    // position after "}}"
};

// The next tag at or after `pos`; nullopt when there is none.
plugin::Result<std::optional<Tag>> nextTag(const std::string& t, std::size_t pos) {
    const auto open = t.find("{{", pos);
    if (open == std::string::npos) return std::optional<Tag>();
    Tag tag;
    tag.begin = open;
    if (t.compare(open, 3, "{{{") == 0) {
        const auto close = t.find("}}}", open + 3);
        if (close == std::string::npos) return templateError("unclosed {{{ tag");
        tag.kind = '&';
        tag.name = trim(t.substr(open + 3, close - open - 3));
        tag.end = close + 3;
        return std::optional<Tag>(tag);
    }
    const auto close = t.find("}}", open + 2);
    if (close == std::string::npos) return templateError("unclosed {{ tag");
    std::string inner = trim(t.substr(open + 2, close - open - 2));
    if (!inner.empty() && (inner[0] == '&' || inner[0] == '#' || inner[0] == '^' ||
                           inner[0] == '/' || inner[0] == '!')) {
        tag.kind = inner[0];
        inner = trim(inner.substr(1));
    }
    tag.name = inner;
    tag.end = close + 2;
    return std::optional<Tag>(tag);
}

// Renders t[pos, stop) into `out`.
plugin::Status render(const std::string& t, std::size_t pos, std::size_t stop, Stack& stack,
                      std::string& out) {
    while (pos < stop) {
        auto found = nextTag(t, pos);
        if (!found) return found.error();
        if (!found->has_value() || (*found)->begin >= stop) {
            out.append(t, pos, stop - pos);
            return {};
        }
        const Tag tag = **found;
        out.append(t, pos, tag.begin - pos);
        pos = tag.end;
        switch (tag.kind) {
            case '!':
                break;
            case '/':
                return templateError("unexpected closing tag " + tag.name);
            case 0:
                out += escapeHtml(toText(lookup(stack, tag.name)));
                break;
            case '&':
                out += toText(lookup(stack, tag.name));
                break;
            default: {  // '#' or '^': find the matching close, counting nested same-name tags
                int depth = 1;
                std::size_t scan = pos;
                std::size_t inner_end = 0;
                while (depth > 0) {
                    auto inner = nextTag(t, scan);
                    if (!inner) return inner.error();
                    if (!inner->has_value() || (*inner)->begin >= stop) {
                        return templateError("unclosed section " + tag.name);
                    }
                    const Tag& it = **inner;
                    if ((it.kind == '#' || it.kind == '^') && it.name == tag.name) ++depth;
                    if (it.kind == '/' && it.name == tag.name) --depth;
                    if (depth == 0) inner_end = it.begin;
                    scan = it.end;
                }
                const nlohmann::json& value = lookup(stack, tag.name);
                if (tag.kind == '^') {
                    if (!truthy(value)) {
                        if (auto ok = render(t, pos, inner_end, stack, out); !ok) return ok;
                    }
                } else if (value.is_array()) {
                    for (const auto& item : value) {
                        stack.push_back(&item);
                        auto ok = render(t, pos, inner_end, stack, out);
                        stack.pop_back();
                        if (!ok) return ok;
                    }
                } else if (truthy(value)) {
                    stack.push_back(&value);
                    auto ok = render(t, pos, inner_end, stack, out);
                    stack.pop_back();
                    if (!ok) return ok;
                }
                pos = scan;
            }
        }
    }
    return {};
}

}  // namespace

std::string escapeHtml(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            case '\'':
                out += "&#39;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

plugin::Result<std::string> renderMustache(const std::string& tmpl, const nlohmann::json& data) {
    Stack stack{&data};
    std::string out;
    if (auto ok = render(tmpl, 0, tmpl.size(), stack, out); !ok) return ok.error();
    return out;
}

}  // namespace docintel::common

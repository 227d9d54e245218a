#include "common/mustache.h"

#include <vector>

namespace docintel::common {
namespace {

plugin::Error templateError(const std::string& why) { return {"template_error", why, 500}; }

std::string trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return std::string(s);
}

/// Looks `name` up from the innermost context outwards; the first segment of a dotted name
/// decides the context, the rest are read from there.
const nlohmann::json* lookup(const std::vector<const nlohmann::json*>& stack,
                             const std::string& name) {
    if (name == ".") return stack.back();
    std::vector<std::string> parts;
    for (std::size_t start = 0;;) {
        const auto dot = name.find('.', start);
        parts.push_back(name.substr(start, dot == std::string::npos ? dot : dot - start));
        if (dot == std::string::npos) break;
        start = dot + 1;
    }
    for (auto it = stack.rbegin(); it != stack.rend(); ++it) {
        const nlohmann::json& ctx = **it;
        if (!ctx.is_object() || !ctx.contains(parts[0])) continue;
        const nlohmann::json* v = &ctx.at(parts[0]);
        for (std::size_t i = 1; i < parts.size(); ++i) {
            if (!v->is_object() || !v->contains(parts[i])) return nullptr;
            v = &v->at(parts[i]);
        }
        return v;
    }
    return nullptr;
}

bool truthy(const nlohmann::json* v) {
    if (!v || v->is_null()) return false;
    if (v->is_boolean()) return v->get<bool>();
    if (v->is_string()) return !v->get_ref<const std::string&>().empty();
    if (v->is_number()) return v->get<double>() != 0;
    if (v->is_array()) return !v->empty();
    return true;
}

std::string scalarText(const nlohmann::json* v) {
    if (!v || v->is_null()) return {};
    if (v->is_string()) return v->get<std::string>();
    if (v->is_boolean()) return v->get<bool>() ? "true" : "false";
    return v->dump();
}

class Renderer {
  public:
    explicit Renderer(std::string_view text) : text_(text) {}

    /// Renders from `pos` until `{{/closing}}` (or the end when `closing` is empty); leaves
    /// `pos` after the closing tag.
    plugin::Status render(std::size_t& pos, const std::string& closing,
                          std::vector<const nlohmann::json*>& stack, std::string* out) {
        while (pos < text_.size()) {
            const auto open = text_.find("{{", pos);
            if (open == std::string_view::npos) {
                if (out) out->append(text_.substr(pos));
                pos = text_.size();
                break;
            }
            if (out) out->append(text_.substr(pos, open - pos));
            const bool triple = text_.compare(open, 3, "{{{") == 0;
            const auto close = text_.find(triple ? "}}}" : "}}", open);
            if (close == std::string_view::npos) return templateError("unclosed tag");
            std::string_view tag =
                text_.substr(open + (triple ? 3 : 2), close - open - (triple ? 3 : 2));
            pos = close + (triple ? 3 : 2);
            if (triple) {
                if (out) out->append(scalarText(lookup(stack, trim(tag))));
                continue;
            }
            const char sigil = tag.empty() ? '\0' : tag.front();
            const std::string name =
                trim(sigil == '#' || sigil == '^' || sigil == '/' || sigil == '&' || sigil == '!'
                         ? tag.substr(1)
                         : tag);
            switch (sigil) {
                case '!':
                    break;
                case '&':
                    if (out) out->append(scalarText(lookup(stack, name)));
                    break;
                case '/':
                    if (name != closing) return templateError("unexpected {{/" + name + "}}");
                    return {};
                case '#':
                case '^': {
                    const bool inverted = sigil == '^';
                    const nlohmann::json* v = out ? lookup(stack, name) : nullptr;
                    const bool show = out && (inverted ? !truthy(v) : truthy(v));
                    if (!show) {
                        // Skipped, but its structure is still checked.
                        if (auto s = render(pos, name, stack, nullptr); !s) return s;
                        break;
                    }
                    if (inverted || !v->is_array()) {
                        const bool push = !inverted && v->is_object();
                        if (push) stack.push_back(v);
                        auto s = render(pos, name, stack, out);
                        if (push) stack.pop_back();
                        if (!s) return s;
                        break;
                    }
                    const std::size_t body = pos;
                    for (const auto& item : *v) {
                        pos = body;
                        stack.push_back(&item);
                        auto s = render(pos, name, stack, out);
                        stack.pop_back();
                        if (!s) return s;
                    }
                    break;
                }
                default:
                    if (out) out->append(escapeHtml(scalarText(lookup(stack, name))));
            }
        }
        if (!closing.empty()) return templateError("unclosed section " + closing);
        return {};
    }

  private:
    std::string_view text_;
};

}  // namespace

std::string escapeHtml(std::string_view text) {
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

plugin::Result<std::string> renderMustache(std::string_view text, const nlohmann::json& context) {
    std::string out;
    std::vector<const nlohmann::json*> stack{&context};
    std::size_t pos = 0;
    Renderer renderer(text);
    if (auto s = renderer.render(pos, "", stack, &out); !s) return s.error();
    return out;
}

}  // namespace docintel::common

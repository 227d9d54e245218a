#include "tax_steps.h"

#include <cmath>
#include <map>
#include <regex>
#include <string_view>

#include "shared/doc_text.h"
#include "shared/evidence.h"
#include "shared/field_extractor.h"

namespace docintel::finance_files {
const std::map<std::string_view, std::string_view>& embeddedFiles();
}

namespace docintel::finance {
namespace {

/// The field descriptors of the vertical's workflow `workflow` (its definition's `fields`).
const nlohmann::json& typedFieldsOf(const std::string& workflow) {
    static const auto all = plugins::workflowFields(finance_files::embeddedFiles());
    return plugins::fieldsFor(all, workflow);
}

using plugin::Result;
using plugin::StepInput;
using plugins::DocText;
using plugins::field;
using plugins::missingField;

double money(const std::string& text) {
    std::string digits;
    for (const char c : text) {
        if ((c >= '0' && c <= '9') || c == '.' || c == '-') digits += c;
    }
    return digits.empty() ? 0.0 : std::round(std::stod(digits) * 100.0) / 100.0;
}

std::string dollars(double v) {
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%.2f", std::fabs(v));
    std::string s = buf;
    const auto dot = s.find('.');
    for (int i = static_cast<int>(dot) - 3; i > 0; i -= 3)
        s.insert(static_cast<std::size_t>(i), ",");
    return std::string(v < 0 ? "-$" : "$") + s;
}

std::string formType(const std::string& text) {
    static const std::vector<std::pair<std::regex, std::string>> kinds = {
        {std::regex(R"(\b1099-INT\b)"), "1099-INT"},
        {std::regex(R"(\b1099-DIV\b)"), "1099-DIV"},
        {std::regex(R"(\b1099-NEC\b)"), "1099-NEC"},
        {std::regex(R"(\b1099-MISC\b)"), "1099-MISC"},
        {std::regex(R"(\b1099-R\b)"), "1099-R"},
        {std::regex(R"(\b1099-B\b)"), "1099-B"},
        {std::regex(R"(Form W-2\b|Wage and Tax Statement)"), "W-2"},
        {std::regex(R"(Form 1098\b|Mortgage Interest Statement)"), "1098"},
        {std::regex(R"(Schedule K-1)"), "K-1"},
        {std::regex(R"(\b1095-A\b)"), "1095-A"}};
    for (const auto& [re, kind] : kinds) {
        if (std::regex_search(text, re)) return kind;
    }
    return {};
}

/// One form in a document: its kind, where the document names it and the span it covers.
struct FormSpan {
    std::string kind;
    std::size_t mention = 0;
    std::size_t mention_len = 0;
    std::size_t begin = 0;
    std::size_t end = 0;
};

/// The forms a document holds (a consolidated statement holds several, an e-mail may list
/// them): each form kind it names, from the line that names it to the next form's line. A
/// mention in a sentence that denies the form ("there won't be a 1099-DIV") holds none. A
/// document that names no kind but is one by its title ("Wage and Tax Statement") is one span.
std::vector<FormSpan> formSpans(const DocText& doc) {
    static const std::regex kind_re(
        R"(\b(?:Form\s+)?(W-2|1099-[A-Z]{1,4}|1098(?:-[A-Z])?|Schedule K-1|1095-A)\b)");
    static const std::regex denial(
        R"(\b(?:no|not|won't|wont|isn't|aren't|wasn't|without|never|none)\b|n't\b)",
        std::regex::icase);
    std::vector<FormSpan> out;
    for (auto it = std::sregex_iterator(doc.text.begin(), doc.text.end(), kind_re);
         it != std::sregex_iterator(); ++it) {
        const auto at = static_cast<std::size_t>(it->position(0));
        std::string kind = (*it)[1].str();
        if (kind == "Schedule K-1") kind = "K-1";
        const std::size_t line =
            doc.text.rfind('\n', at) == std::string::npos ? 0 : doc.text.rfind('\n', at) + 1;
        std::size_t sentence = doc.text.rfind(". ", at);
        sentence = sentence == std::string::npos || sentence < line ? line : sentence + 2;
        if (std::regex_search(doc.text.substr(sentence, at - sentence), denial)) continue;
        if (!out.empty() && out.back().kind == kind) continue;
        if (!out.empty() && out.back().begin == line) continue;  // "W-2 ... box 1" on one line
        out.push_back({kind, at, static_cast<std::size_t>(it->length(0)), line, doc.text.size()});
        if (out.size() > 1) out[out.size() - 2].end = line;
    }
    if (out.empty()) {
        if (const std::string kind = formType(doc.text); !kind.empty()) {
            out.push_back({kind, 0, 0, 0, doc.text.size()});
        }
    }
    return out;
}

Result<nlohmann::json> classifyForms(plugin::HostServices& host, const StepInput& in) {
    auto docs = plugins::loadDocTexts(host, in, "primary");
    if (!docs) return docs.error();
    static const std::regex payer(
        R"((?:Employer's name|PAYER'S name|Payer's name|Lender's name|Partnership's name)\s*:\s*([\s\S]+?)(?:,\s*(?:\d|P\.O\.)|\n|$))");
    static const std::regex box(
        R"(Box\s+(\d{1,2}[a-z]?)\s+([^:$\n]+?)\s*:\s*\$\s*([\d,]+\.\d{2}))");
    nlohmann::json forms = nlohmann::json::array();
    for (const auto& doc : *docs) {
        const auto spans = formSpans(doc);
        if (spans.empty()) continue;
        const auto all_units = plugins::fieldUnits(doc);
        for (const auto& span : spans) {
            const std::string& kind = span.kind;
            nlohmann::json kind_field = field(kind, nullptr, 0.6);
            if (span.mention_len > 0) {
                kind_field = field(kind, doc.source(span.mention, span.mention_len), 0.95);
            }
            // The rules read the form's own text; a statement's header (before its first
            // form) belongs to every form in it.
            const auto from = doc.text.cbegin() + static_cast<std::ptrdiff_t>(span.begin);
            const auto to = doc.text.cbegin() + static_cast<std::ptrdiff_t>(span.end);
            std::smatch m;
            nlohmann::json payer_field = missingField();
            if (std::regex_search(from, to, m, payer)) {
                payer_field = field(plugins::trimmed(m[1].str()),
                                    doc.source(span.begin + static_cast<std::size_t>(m.position(0)),
                                               static_cast<std::size_t>(m.length(0))),
                                    0.9);
            }
            nlohmann::json amounts = nlohmann::json::object();
            for (auto it = std::sregex_iterator(from, to, box); it != std::sregex_iterator();
                 ++it) {
                const std::string key = "box_" + (*it)[1].str();
                if (amounts.contains(key)) continue;
                amounts[key] =
                    field(money((*it)[3].str()),
                          doc.source(span.begin + static_cast<std::size_t>(it->position(0)),
                                     static_cast<std::size_t>(it->length(0))),
                          0.9);
            }
            nlohmann::json form = {{"document_id", doc.document_id},
                                   {"form_type", kind_field},
                                   {"payer", payer_field},
                                   {"amounts", amounts}};
            // The typed fields of this form type read its payer and box amounts by their
            // labels' meaning, in any layout; the box rule above adds evidence. The candidates
            // are the form's units and the statement's header; an e-mail's header lines name
            // its sender (the client), not a form's payer.
            std::vector<plugins::FieldUnit> units;
            for (const auto& u : all_units) {
                if ((u.pos >= span.begin && u.pos < span.end) ||
                    (u.pos < spans.front().begin && !plugins::isMessageHeader(u.text))) {
                    units.push_back(u);
                }
            }
            const std::string prefix = "forms." + kind + ".";
            std::map<std::string, nlohmann::json> typed_fields;
            for (const auto& spec : plugins::fieldSpecs(typedFieldsOf(in.workflow), {prefix})) {
                auto f = plugins::extractField(spec, doc, units, {});
                if (f["value"].is_string() && spec.type == "money") {
                    f["value"] = money(f["value"].get<std::string>());  // a box holds a number
                }
                if (!f["value"].is_null()) typed_fields[spec.path.substr(prefix.size())] = f;
            }
            plugins::mergeTypedFields(form, typed_fields);
            forms.push_back(std::move(form));
        }
    }
    return nlohmann::json{{"forms", forms}};
}

double amountOf(const nlohmann::json& form, const std::string& box) {
    const auto& a = form["amounts"];
    return a.contains(box) && a[box]["value"].is_number() ? a[box]["value"].get<double>() : 0.0;
}

/// Organizer totals: (key, form type, box) summed over the forms found.
const std::vector<std::tuple<std::string, std::string, std::string>> kTotals = {
    {"wages", "W-2", "box_1"},
    {"federal_withholding", "W-2", "box_2"},
    {"federal_withholding", "1099-INT", "box_4"},
    {"federal_withholding", "1099-DIV", "box_4"},
    {"federal_withholding", "1099-R", "box_4"},
    {"taxable_interest", "1099-INT", "box_1"},
    {"ordinary_dividends", "1099-DIV", "box_1a"},
    {"qualified_dividends", "1099-DIV", "box_1b"},
    {"capital_gain_distributions", "1099-DIV", "box_2a"},
    {"foreign_tax_paid", "1099-DIV", "box_7"},
    {"nonemployee_compensation", "1099-NEC", "box_1"},
    {"retirement_distributions", "1099-R", "box_1"},
    {"mortgage_interest", "1098", "box_1"}};

std::string lower(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

Result<nlohmann::json> organize(plugin::HostServices& host, const StepInput& in) {
    const auto& forms = in.packet.value("forms", nlohmann::json::array());
    nlohmann::json totals = nlohmann::json::object();
    for (const auto& [key, kind, box] : kTotals) {
        for (const auto& f : forms) {
            if (f["form_type"]["value"] != kind || !f["amounts"].contains(box)) continue;
            totals[key] = std::round((totals.value(key, 0.0) + amountOf(f, box)) * 100.0) / 100.0;
        }
    }
    nlohmann::json found = nlohmann::json::array();
    for (const auto& f : forms) {
        found.push_back(f["form_type"]["value"].get<std::string>() + " from " +
                        (f["payer"]["value"].is_string() ? f["payer"]["value"].get<std::string>()
                                                         : std::string("an unknown payer")));
    }
    nlohmann::json organizer = {{"client_name", in.inputs.value("client_name", "")},
                                {"tax_year", in.inputs.value("tax_year", 0)},
                                {"filing_status", in.inputs.value("filing_status", "")},
                                {"forms_found", found},
                                {"totals", totals}};

    // Forms the prior return lists that this year's documents do not include.
    nlohmann::json missing = nlohmann::json::array();
    auto prior = plugins::loadDocTexts(host, in, "prior_return_document_id");
    if (!prior) return prior.error();
    static const std::regex received(R"(Forms received for (\d{4})\s*:\s*([^\n]+))");
    static const std::regex item(
        R"((W-2|1099-[A-Z]+|1098|K-1|1095-A)\s+from\s+([^;.]+(?:\.[A-Za-z][^;.]*)*))");
    for (const auto& doc : *prior) {
        std::smatch m;
        if (!std::regex_search(doc.text, m, received)) continue;
        const std::string year = m[1].str();
        const std::string list = m[2].str();
        for (auto it = std::sregex_iterator(list.begin(), list.end(), item);
             it != std::sregex_iterator(); ++it) {
            const std::string kind = (*it)[1].str();
            const std::string from = plugins::trimmed((*it)[2].str());
            bool have = false;
            for (const auto& f : forms) {
                const std::string payer =
                    f["payer"]["value"].is_string() ? f["payer"]["value"].get<std::string>() : "";
                have = have || (f["form_type"]["value"] == kind &&
                                lower(payer).find(lower(from.substr(0, 10))) != std::string::npos);
            }
            if (!have) {
                missing.push_back(kind + " from " + from + " (received for " + year +
                                  ", not provided yet)");
            }
        }
    }
    const std::string status = in.inputs.value("filing_status", "");
    int w2 = 0;
    for (const auto& f : forms) w2 += f["form_type"]["value"] == "W-2" ? 1 : 0;
    if (status == "married_filing_jointly" && w2 < 2) {
        missing.push_back("Spouse's W-2, if the spouse had wages");
    }
    return nlohmann::json{{"organizer", organizer}, {"missing_documents", missing}};
}

Result<nlohmann::json> compare(plugin::HostServices& host, const StepInput& in) {
    const auto& organizer = in.packet.at("organizer");
    const auto& totals = organizer.at("totals");
    auto prior = plugins::loadDocTexts(host, in, "prior_return_document_id");
    if (!prior) return prior.error();
    nlohmann::json comparison = nullptr;
    static const std::vector<std::pair<std::string, std::string>> lines = {
        {"wages", "1z"},
        {"taxable_interest", "2b"},
        {"ordinary_dividends", "3b"},
        {"federal_withholding", "25d"}};
    for (const auto& doc : *prior) {
        static const std::regex year(R"((\d{4})\s+Form 1040)");
        std::smatch y;
        nlohmann::json items = nlohmann::json::array();
        for (const auto& [key, line] : lines) {
            const std::regex re("Line " + line + R"(\s+[^:$\n]*:\s*\$\s*([\d,]+\.\d{2}))");
            std::smatch m;
            if (!std::regex_search(doc.text, m, re)) continue;
            const double before = money(m[1].str());
            const double now = totals.value(key, 0.0);
            const double change = std::round((now - before) * 100.0) / 100.0;
            items.push_back(
                {{"item", key},
                 {"prior", before},
                 {"current", now},
                 {"change", change},
                 {"change_pct", before == 0
                                    ? nlohmann::json(nullptr)
                                    : nlohmann::json(std::round(change / before * 1000.0) / 10.0)},
                 {"source", doc.source(static_cast<std::size_t>(m.position(0)),
                                       static_cast<std::size_t>(m.length(0)))}});
        }
        comparison = {
            {"prior_year", std::regex_search(doc.text, y, year) ? std::stoi(y[1].str()) : 0},
            {"document_id", doc.document_id},
            {"items", items}};
        break;
    }

    std::string summary = in.inputs.value("client_name", "The client") + ", tax year " +
                          std::to_string(in.inputs.value("tax_year", 0));
    if (!organizer.value("filing_status", "").empty()) {
        summary += " (" + organizer.value("filing_status", "") + ")";
    }
    const auto& found = organizer.at("forms_found");
    summary += ": " + std::to_string(found.size()) + " form(s) found";
    if (!found.empty()) {
        summary += " (";
        for (std::size_t i = 0; i < found.size(); ++i) {
            summary += (i ? "; " : "") + found[i].get<std::string>();
        }
        summary += ")";
    }
    summary += ".";
    if (totals.contains("wages"))
        summary += " Wages " + dollars(totals["wages"].get<double>()) + ".";
    if (totals.contains("federal_withholding")) {
        summary +=
            " Federal withholding " + dollars(totals["federal_withholding"].get<double>()) + ".";
    }
    if (comparison.is_object()) {
        for (const auto& i : comparison["items"]) {
            if (i["change_pct"].is_number() && std::fabs(i["change_pct"].get<double>()) >= 25.0) {
                summary += " " + i["item"].get<std::string>() + " changed by " +
                           i["change_pct"].dump() + "% from " +
                           std::to_string(comparison["prior_year"].get<int>()) + ".";
            }
        }
    }
    const auto& missing = in.packet.value("missing_documents", nlohmann::json::array());
    summary += missing.empty() ? " No documents appear to be missing."
                               : " " + std::to_string(missing.size()) +
                                     " document(s) appear to be missing; request them before "
                                     "preparing the return.";
    return nlohmann::json{{"prior_year_comparison", comparison}, {"cpa_review_summary", summary}};
}

}  // namespace

void registerTaxSteps(plugin::Registrar& registrar, plugin::HostServices& host) {
    const std::string prefix = "finance.finance_tax_readiness.";
    plugin::HostServices* h = &host;
    registrar.addWorkflowStep({prefix + "classify_forms", "Forms found with key amounts",
                               [h](const StepInput& in) { return classifyForms(*h, in); }});
    registrar.addWorkflowStep({prefix + "organize", "Tax organizer and missing documents",
                               [h](const StepInput& in) { return organize(*h, in); }});
    registrar.addWorkflowStep({prefix + "compare", "Prior-year comparison and CPA summary",
                               [h](const StepInput& in) { return compare(*h, in); }});
}

}  // namespace docintel::finance

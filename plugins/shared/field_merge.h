#pragma once

// How a step's layout rules and the typed fields (field_extractor.h, docs/decisions/0064) make
// one result: a field the rules left empty takes the typed value, agreement raises the
// confidence, and a rule's default without a source or a value that ran on into the next field
// of a form yields to a typed value. Header-only; pure.

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "shared/field_units.h"

namespace docintel::plugins {

/// The JSON pointer of a dotted path ("abstract.base_rent" → /abstract/base_rent).
inline nlohmann::json::json_pointer pointerOf(const std::string& path) {
    std::string p = "/" + path;
    std::replace(p.begin(), p.end(), '.', '/');
    return nlohmann::json::json_pointer(p);
}

/// Whether a rule's value ran on into the next field of a form or table ("Northwest Cascade
/// Health Member number: NWC600418227", "Date of birth | Ann Roe: May 2, 1978", "Ann Roe Work
/// e-mail ...... ann@x.example"): it holds a table cell break or a label after its first word.
inline bool ranOn(const nlohmann::json& value) {
    if (!value.is_string()) return false;
    const std::string v = value.get<std::string>();
    if (v.find(" | ") != std::string::npos) return true;
    const auto labels = labelStarts(cleanLine(v));
    return std::any_of(labels.begin(), labels.end(), [](std::size_t at) { return at > 0; });
}

/// Whether a rule's value is the typed value with a bracketed note after it ("Northwest Cascade
/// Health (Medicare Advantage)" for "Northwest Cascade Health"): the note says what kind of
/// thing the value is, and is no part of it.
inline bool withNote(const nlohmann::json& rule, const nlohmann::json& typed) {
    if (!rule.is_string() || !typed.is_string()) return false;
    const std::string r = rule.get<std::string>(), t = typed.get<std::string>();
    if (t.empty() || r.size() <= t.size() + 3 || r.compare(0, t.size(), t) != 0) return false;
    const std::string note = trimmed(r.substr(t.size()));
    return note.front() == '(' && note.back() == ')' && note.find('(', 1) == std::string::npos;
}

/// Whether a rule's value is a sentence that holds the typed value ("The Premises are Suite 410,
/// 225 West Wacker Drive, ..." for the address "Suite 410, 225 West Wacker Drive, ..."): a clause
/// rule reads the sentence, the typed extractor the value of the field's type in it.
inline bool holdsTyped(const nlohmann::json& rule, const nlohmann::json& typed) {
    if (!rule.is_string() || !typed.is_string()) return false;
    const std::string r = rule.get<std::string>(), t = typed.get<std::string>();
    if (t.size() < 2 || r.size() <= t.size() + 10 || r.back() != '.' ||
        std::count(r.begin(), r.end(), ' ') < 5) {
        return false;  // no sentence ("Ada Quill (Ms.) Jones" is a name with a note)
    }
    return typed::lower(r).find(typed::lower(t)) != std::string::npos;
}

/// Puts the typed fields into a step's result: a field the step's rules left empty takes the
/// typed value (a list of measurements also the typed ones of names it lacks); where both found
/// one, the rules' value stays and agreement raises its confidence, unless the rules' value ran on
/// into another field (ranOn) or is the typed value with a note (withNote) or a sentence that holds
/// the typed value (holdsTyped); a rules' value that ran on into the next table cell with no typed
/// value to replace it keeps its own cell. `result` paths are relative to the packet.
inline void mergeTypedFields(nlohmann::json& result,
                             const std::map<std::string, nlohmann::json>& typed_fields) {
    for (const auto& [path, f] : typed_fields) {
        const auto ptr = pointerOf(path);
        if (f.is_array()) {
            // A list: the typed items when the rules found none ...
            if (!result.contains(ptr) || !result[ptr].is_array() || result[ptr].empty()) {
                result[ptr] = f;
                continue;
            }
            // ... and, for measurements (a lab: a name and a value), each typed one whose name
            // the rules' lack: a section rule reads one layout of a list, the typed list every
            // layout ("Labs 12/04: Na 136, K 4.1" on a line of vital signs).
            auto nameOf = [](const nlohmann::json& item) {
                const auto& v = item.is_object() && item.contains("value") ? item["value"] : item;
                return v.is_object() && v.contains("name") && v["name"].is_string() &&
                               v.contains("value") && !v.contains("dose")
                           ? typed::lower(v["name"].get<std::string>())
                           : std::string();
            };
            std::vector<std::string> names;
            for (const auto& item : result[ptr]) names.push_back(nameOf(item));
            if (std::find(names.begin(), names.end(), std::string()) != names.end()) continue;
            // A rules' measurement of the same value named more closely ("Fasting Glucose 168"
            // for "glucose 168") is the same one.
            auto valueOf = [](const nlohmann::json& item) {
                const auto& v = item.is_object() && item.contains("value") ? item["value"] : item;
                return v.is_object() ? v.value("value", nlohmann::json()) : nlohmann::json();
            };
            auto named_closer = [&](const nlohmann::json& item, const std::string& name) {
                return std::any_of(result[ptr].begin(), result[ptr].end(), [&](const auto& r) {
                    return valueOf(r) == valueOf(item) &&
                           findPhrase(nameOf(r), name) != std::string::npos;
                });
            };
            for (const auto& item : f) {
                const std::string name = nameOf(item);
                if (name.empty() || std::find(names.begin(), names.end(), name) != names.end() ||
                    named_closer(item, name)) {
                    continue;
                }
                names.push_back(name);
                result[ptr].push_back(item);
            }
            continue;
        }
        // A rule's default without a source ("standard" when no urgency is stated) is no
        // evidence: the typed field, found or missing, replaces it; a found typed field also
        // replaces a rule's value that ran on into another field.
        const bool default_only = result.contains(ptr) && result[ptr].is_object() &&
                                  !result[ptr]["value"].is_null() &&
                                  (result[ptr].value("source", nlohmann::json()).is_null() ||
                                   (ranOn(result[ptr]["value"]) && !f["value"].is_null()) ||
                                   withNote(result[ptr]["value"], f["value"]) ||
                                   holdsTyped(result[ptr]["value"], f["value"]));
        // A rule's value that ran on into the next cell of a table row ("ROE, ANN B | SEX: M |")
        // keeps its own cell when no typed value replaces it.
        if (!default_only && f["value"].is_null() && result.contains(ptr) &&
            result[ptr].is_object() && result[ptr]["value"].is_string()) {
            const std::string v = result[ptr]["value"].get<std::string>();
            const std::string own = trimmed(v.substr(0, v.find(" | ")));
            if (own.size() < v.size() && !own.empty()) result[ptr]["value"] = own;
        }
        if (default_only || !result.contains(ptr) || !result[ptr].is_object() ||
            result[ptr]["value"].is_null() ||
            (result[ptr]["value"].is_array() && result[ptr]["value"].empty())) {
            if (!f["value"].is_null() || !result.contains(ptr) || default_only) result[ptr] = f;
            continue;
        }
        if (result[ptr]["value"] == f["value"]) {
            const double agreed = std::min(0.99, std::max(result[ptr]["confidence"].get<double>(),
                                                          f["confidence"].get<double>()) +
                                                     0.05);
            result[ptr]["confidence"] = std::round(agreed * 100.0) / 100.0;
        }
    }
}

}  // namespace docintel::plugins

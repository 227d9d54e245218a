#pragma once

#include <Poco/AutoPtr.h>
#include <Poco/DOM/Document.h>
#include <Poco/DOM/Element.h>

#include <string>
#include <vector>

#include "plugin_api/result.h"

namespace docintel::ingest {

/// Parses package XML into a DOM with namespaces on and external entities off. Refuses
/// (unreadable_document) nesting deeper than a sane document needs, so hostile input cannot
/// exhaust the stack. Throws nothing.
plugin::Result<Poco::AutoPtr<Poco::XML::Document>> parseXml(const std::string& xml);

/// Element children of `parent` (any namespace) in document order.
std::vector<Poco::XML::Element*> childElements(const Poco::XML::Node* parent);
/// First child element with this local name, or nullptr.
Poco::XML::Element* child(const Poco::XML::Node* parent, const std::string& local_name);
/// Attribute by local name, ignoring its prefix; "" when absent.
std::string attr(const Poco::XML::Element* element, const std::string& local_name);
/// First descendant element with this local name, or nullptr.
Poco::XML::Element* descendant(const Poco::XML::Node* root, const std::string& local_name);
/// Concatenated text of descendant elements named `text_name` (e.g. "t").
std::string textOf(const Poco::XML::Node* node, const std::string& text_name);

}  // namespace docintel::ingest

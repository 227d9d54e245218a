#include "ingest/xml_dom.h"

#include <Poco/DOM/Attr.h>
#include <Poco/DOM/DOMParser.h>
#include <Poco/DOM/NamedNodeMap.h>
#include <Poco/SAX/XMLReader.h>

#include "ingest/parser.h"

namespace docintel::ingest {

namespace {

constexpr int kMaxXmlDepth = 512;

bool nestingWithinLimit(const std::string& xml) {
    int depth = 0;
    for (std::size_t i = 0; i + 1 < xml.size(); ++i) {
        if (xml[i] != '<') continue;
        char n = xml[i + 1];
        if (n == '/') {
            --depth;
        } else if (n != '?' && n != '!') {
            auto end = xml.find('>', i);
            if (end == std::string::npos) break;
            if (xml[end - 1] != '/') ++depth;
            if (depth > kMaxXmlDepth) return false;
            i = end;
        }
    }
    return true;
}

}  // namespace

plugin::Result<Poco::AutoPtr<Poco::XML::Document>> parseXml(const std::string& xml) {
    if (!nestingWithinLimit(xml)) return unreadableError("the document XML is nested too deeply");
    try {
        Poco::XML::DOMParser parser;
        parser.setFeature(Poco::XML::XMLReader::FEATURE_NAMESPACES, true);
        parser.setFeature(Poco::XML::XMLReader::FEATURE_EXTERNAL_GENERAL_ENTITIES, false);
        parser.setFeature(Poco::XML::XMLReader::FEATURE_EXTERNAL_PARAMETER_ENTITIES, false);
        Poco::AutoPtr<Poco::XML::Document> doc = parser.parseString(xml);
        if (doc.isNull() || doc->documentElement() == nullptr) {
            return unreadableError("the document XML is empty");
        }
        return doc;
    } catch (const std::exception&) {
        return unreadableError("the document XML is damaged");
    }
}

std::vector<Poco::XML::Element*> childElements(const Poco::XML::Node* parent) {
    std::vector<Poco::XML::Element*> out;
    if (parent == nullptr) return out;
    for (auto* n = parent->firstChild(); n != nullptr; n = n->nextSibling()) {
        if (n->nodeType() == Poco::XML::Node::ELEMENT_NODE) {
            out.push_back(static_cast<Poco::XML::Element*>(n));
        }
    }
    return out;
}

Poco::XML::Element* child(const Poco::XML::Node* parent, const std::string& local_name) {
    for (auto* e : childElements(parent)) {
        if (e->localName() == local_name) return e;
    }
    return nullptr;
}

std::string attr(const Poco::XML::Element* element, const std::string& local_name) {
    if (element == nullptr) return {};
    Poco::AutoPtr<Poco::XML::NamedNodeMap> attrs = element->attributes();
    for (unsigned long i = 0; i < attrs->length(); ++i) {
        auto* a = attrs->item(i);
        if (a->localName() == local_name || a->nodeName() == local_name) return a->nodeValue();
    }
    return {};
}

Poco::XML::Element* descendant(const Poco::XML::Node* root, const std::string& local_name) {
    for (auto* e : childElements(root)) {
        if (e->localName() == local_name) return e;
        if (auto* d = descendant(e, local_name)) return d;
    }
    return nullptr;
}

std::string textOf(const Poco::XML::Node* node, const std::string& text_name) {
    std::string out;
    for (auto* e : childElements(node)) {
        if (e->localName() == text_name) {
            out += e->innerText();
        } else if (e->localName() == "tab") {
            out += '\t';
        } else if (e->localName() == "br" || e->localName() == "cr") {
            out += '\n';
        } else {
            out += textOf(e, text_name);
        }
    }
    return out;
}

}  // namespace docintel::ingest

#include "mcp/mcp_test_profile.h"

#include <chrono>
#include <thread>

namespace docintel::mcp {
namespace {

using nlohmann::json;
using plugin::Result;
using plugin::ToolCall;

// A 1x1 PNG and a 16-sample silent 8 kHz WAV.
constexpr const char* kPng =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg"
    "==";
constexpr const char* kWav =
    "UklGRjQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YRAAAAAAAAAAAAAAAAAAAAAAAAAA";

json noArguments() { return {{"type", "object"}, {"properties", json::object()}}; }

json text(const std::string& t) { return {{"type", "text"}, {"text", t}}; }

Tool fixture(std::string name, std::string description, json result) {
    Tool t;
    t.name = std::move(name);
    t.description = std::move(description);
    t.input_schema = noArguments();
    t.raw_result = true;
    t.read_only = true;
    t.handler = [result = std::move(result)](const ToolCall&, ToolContext&) -> Result<json> {
        return result;
    };
    return t;
}

void pause() { std::this_thread::sleep_for(std::chrono::milliseconds(50)); }

Resource fixedResource(std::string uri, std::string mime_type, json contents_item) {
    Resource r;
    r.uri_template = uri;
    r.name = uri.substr(uri.find("//") + 2);
    r.description = "Conformance fixture " + uri;
    r.mime_type = std::move(mime_type);
    r.raw_contents = true;
    r.reader = [item = std::move(contents_item)](
                   const std::string&, const std::map<std::string, std::string>&,
                   const plugin::Principal&) -> Result<json> { return item; };
    return r;
}

}  // namespace

std::vector<Tool> testProfileTools() {
    std::vector<Tool> tools;
    tools.push_back(fixture("test_simple_text", "Returns a simple text response",
                            {{"content", {text("This is a simple text response for testing.")}}}));
    tools.push_back(
        fixture("test_image_content", "Returns a 1x1 PNG",
                {{"content", {{{"type", "image"}, {"data", kPng}, {"mimeType", "image/png"}}}}}));
    tools.push_back(
        fixture("test_audio_content", "Returns a short silent WAV",
                {{"content", {{{"type", "audio"}, {"data", kWav}, {"mimeType", "audio/wav"}}}}}));
    tools.push_back(fixture("test_embedded_resource", "Returns an embedded text resource",
                            {{"content",
                              {{{"type", "resource"},
                                {"resource",
                                 {{"uri", "test://embedded-resource"},
                                  {"mimeType", "text/plain"},
                                  {"text", "This is an embedded resource content."}}}}}}}));
    tools.push_back(fixture("test_multiple_content_types", "Returns text, an image and a resource",
                            {{"content",
                              {text("Multiple content types test:"),
                               {{"type", "image"}, {"data", kPng}, {"mimeType", "image/png"}},
                               {{"type", "resource"},
                                {"resource",
                                 {{"uri", "test://mixed-content-resource"},
                                  {"mimeType", "application/json"},
                                  {"text", R"({"test":"data","value":123})"}}}}}}}));
    tools.push_back(
        fixture("test_error_handling", "Always fails",
                {{"isError", true},
                 {"content", {text("This tool intentionally returns an error for testing")}}}));

    Tool logging = fixture("test_tool_with_logging", "Sends three log messages while it runs", {});
    logging.handler = [](const ToolCall&, ToolContext& context) -> Result<json> {
        context.log("info", "Tool execution started");
        pause();
        context.log("info", "Tool processing data");
        pause();
        context.log("info", "Tool execution completed");
        return json{{"content", {text("Logging tool finished")}}};
    };
    tools.push_back(std::move(logging));

    Tool progress = fixture("test_tool_with_progress", "Reports progress 0, 50 and 100 of 100", {});
    progress.handler = [](const ToolCall&, ToolContext& context) -> Result<json> {
        context.progress(0, 100, "started");
        pause();
        context.progress(50, 100, "halfway");
        pause();
        context.progress(100, 100, "finished");
        return json{{"content", {text("Progress tool finished")}}};
    };
    tools.push_back(std::move(progress));

    Tool schema = fixture("json_schema_2020_12_tool", "Tool with JSON Schema 2020-12 features",
                          {{"content", {text("ok")}}});
    schema.validate_arguments = false;  // `$defs` references are for clients to read
    schema.input_schema = {
        {"$schema", "https://json-schema.org/draft/2020-12/schema"},
        {"type", "object"},
        {"$defs",
         {{"address",
           {{"type", "object"},
            {"properties", {{"street", {{"type", "string"}}}, {"city", {{"type", "string"}}}}}}}}},
        {"properties",
         {{"name", {{"type", "string"}}}, {"address", {{"$ref", "#/$defs/address"}}}}},
        {"additionalProperties", false}};
    tools.push_back(std::move(schema));
    return tools;
}

std::vector<Resource> testProfileResources() {
    std::vector<Resource> resources;
    resources.push_back(
        fixedResource("test://static-text", "text/plain",
                      {{"uri", "test://static-text"},
                       {"mimeType", "text/plain"},
                       {"text", "This is the content of the static text resource."}}));
    resources.push_back(fixedResource(
        "test://static-binary", "image/png",
        {{"uri", "test://static-binary"}, {"mimeType", "image/png"}, {"blob", kPng}}));
    resources.push_back(fixedResource("test://watched-resource", "text/plain",
                                      {{"uri", "test://watched-resource"},
                                       {"mimeType", "text/plain"},
                                       {"text", "Watched resource content"}}));

    Resource templated;
    templated.uri_template = "test://template/{id}/data";
    templated.name = "template-data";
    templated.description = "Conformance fixture template";
    templated.raw_contents = true;
    templated.reader = [](const std::string& uri, const std::map<std::string, std::string>& v,
                          const plugin::Principal&) -> Result<json> {
        const std::string& id = v.at("id");
        return json{
            {"uri", uri},
            {"mimeType", "application/json"},
            {"text",
             json{{"id", id}, {"templateTest", true}, {"data", "Data for ID: " + id}}.dump()}};
    };
    resources.push_back(std::move(templated));
    return resources;
}

}  // namespace docintel::mcp

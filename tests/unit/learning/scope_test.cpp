// Attaching content and resolving the scope of a course, module or lesson.

#include <gtest/gtest.h>

#include "learning/scope.h"

namespace docintel::learning {
namespace {

using nlohmann::json;

Curriculum curriculum() {
    Curriculum c;
    c.modules.push_back({"m1", "Cells", "", 0, {{"l1", "Membranes", "", {}, {}, 0}}});
    c.modules.push_back({"m2", "Genetics", "", 1, {{"l2", "DNA", "", {}, {}, 0}}});
    return c;
}

std::map<std::string, DocumentInfo> documents() {
    return {{"syllabus", {"syllabus", "syllabus.pdf", "pdf", "embedded"}},
            {"cells", {"cells", "cells.pdf", "pdf", "embedded"}},
            {"membranes", {"membranes", "membranes.mp4", "mp4", "embedded"}},
            {"genes", {"genes", "genes.docx", "docx", "embedded"}},
            {"dna", {"dna", "dna.pdf", "pdf", "chunked"}}};
}

std::vector<Asset> assets() {
    return {{"a0", "syllabus", "", "", "Syllabus", {}, {}},
            {"a1", "cells", "m1", "", "Cells", {}, {}},
            {"a2", "membranes", "m1", "l1", "Lecture", 30.0, 90.0},
            {"a3", "genes", "m2", "", "Genes", {}, {}},
            {"a4", "dna", "m2", "l2", "DNA", {}, {}}};
}

Course course() {
    Course c;
    c.id = "c1";
    c.title = "Biology";
    return c;
}

std::vector<std::string> scopeDocs(const std::string& module, const std::string& lesson) {
    const auto s = resolveScope(course(), curriculum(), assets(), documents(), module, lesson);
    EXPECT_TRUE(s.ok());
    return s.ok() ? s->document_ids : std::vector<std::string>{};
}

TEST(Scope, CourseModuleAndLessonScopes) {
    using V = std::vector<std::string>;
    EXPECT_EQ(scopeDocs("", ""), (V{"syllabus", "cells", "membranes", "genes"}));
    EXPECT_EQ(scopeDocs("m1", ""), (V{"syllabus", "cells", "membranes"}));
    EXPECT_EQ(scopeDocs("m2", ""), (V{"syllabus", "genes"}));  // dna is not embedded
    EXPECT_EQ(scopeDocs("m1", "l1"), (V{"syllabus", "cells", "membranes"}));
    EXPECT_EQ(scopeDocs("", "l2"), (V{"syllabus", "genes"}));  // the lesson implies m2
}

TEST(Scope, LabelTypeRangesAndAssets) {
    const auto s = resolveScope(course(), curriculum(), assets(), documents(), "m1", "l1");
    ASSERT_TRUE(s.ok());
    const json j = scopeJson("c1", *s);
    EXPECT_EQ(j["scope_type"], "lesson");
    EXPECT_EQ(j["label"], "Biology > Cells > Membranes");
    ASSERT_EQ(j["evidence_ranges"].size(), 1u);
    EXPECT_EQ(j["evidence_ranges"][0]["start_seconds"], 30.0);
    EXPECT_EQ(j["evidence_ranges"][0]["end_seconds"], 90.0);
    EXPECT_EQ(j["assets"].size(), 3u);
    const auto m2 = resolveScope(course(), curriculum(), assets(), documents(), "m2", "");
    ASSERT_TRUE(m2.ok());
    EXPECT_EQ(m2->assets.size(), 3u);  // the DNA lesson's asset shows, its document does not
}

TEST(Scope, UnknownPlacesAreNotFoundAndMismatchIs422) {
    EXPECT_EQ(
        resolveScope(course(), curriculum(), assets(), documents(), "m9", "").error().http_status,
        404);
    EXPECT_EQ(
        resolveScope(course(), curriculum(), assets(), documents(), "", "l9").error().http_status,
        404);
    EXPECT_EQ(
        resolveScope(course(), curriculum(), assets(), documents(), "m1", "l2").error().http_status,
        422);
}

TEST(Scope, AttachingChecksPlaceRangeAndDuplicates) {
    const auto docs = documents();
    const auto existing = assets();
    const auto attach = [&](const json& body, const DocumentInfo* doc) {
        return assetFromCreate(body, curriculum(), doc, existing);
    };
    const auto ok = attach({{"document_id", "genes"}, {"lesson_id", "l2"}}, &docs.at("genes"));
    ASSERT_TRUE(ok.ok());
    EXPECT_EQ(ok->module_id, "m2");
    EXPECT_EQ(ok->title, "genes.docx");

    EXPECT_EQ(attach({{"document_id", "x"}}, nullptr).error().http_status, 404);
    EXPECT_EQ(
        attach({{"document_id", "cells"}, {"module_id", "m1"}}, &docs.at("cells")).error().code,
        "asset_exists");
    EXPECT_EQ(attach({{"document_id", "cells"}, {"module_id", "m7"}}, &docs.at("cells"))
                  .error()
                  .http_status,
              422);
    EXPECT_EQ(attach({{"document_id", "cells"}, {"module_id", "m1"}, {"lesson_id", "l2"}},
                     &docs.at("cells"))
                  .error()
                  .http_status,
              422);
    const DocumentInfo& video = docs.at("membranes");
    EXPECT_TRUE(
        attach({{"document_id", "membranes"}, {"start_seconds", 0}, {"end_seconds", 5}}, &video)
            .ok());
    EXPECT_EQ(
        attach({{"document_id", "membranes"}, {"start_seconds", 9}, {"end_seconds", 9}}, &video)
            .error()
            .http_status,
        422);
    EXPECT_EQ(attach({{"document_id", "cells"}, {"start_seconds", 1}, {"end_seconds", 5}},
                     &docs.at("cells"))
                  .error()
                  .http_status,
              422);
}

}  // namespace
}  // namespace docintel::learning

#include "learning/plugin/learning_service.h"
#include "learning/validation.h"

#include <algorithm>
#include <cctype>

namespace docintel::learning {

using nlohmann::json;
using plugin::Error;
using plugin::PluginTx;
using plugin::Result;
using plugin::Status;

namespace {

Error courseNotFound() { return {"course_not_found", "course not found", 404}; }

/// The personal scope has no courses: a request without a team workspace is refused as the
/// original refused a workspace it does not serve (403), not as malformed (400): the header is
/// optional in the contract.
Error workspaceRequired() {
    return Error::forbidden("workspace_required",
                            "learning requests need X-DocIntel-Workspace-ID: the course's team "
                            "workspace");
}

/// A document's type as learning shows it: its file extension, else its MIME type.
std::string fileType(const json& document) {
    const std::string name = document.value("filename", std::string());
    const auto dot = name.rfind('.');
    if (dot != std::string::npos && dot + 1 < name.size()) return lowered(name.substr(dot + 1));
    return document.value("content_type", std::string());
}

}  // namespace

Status LearningService::checkHeader(const Caller& c, const std::string& workspace_id) {
    if (!c.header) return {};
    if (c.header->empty()) return workspaceRequired();
    if (*c.header != workspace_id) {
        return Error::forbidden("workspace_mismatch",
                                "workspace_id is not the request's X-DocIntel-Workspace-ID");
    }
    return {};
}

Result<std::optional<WorkspaceRole>> LearningService::roleIn(const Caller& c,
                                                             const std::string& workspace_id) {
    if (!store::isUuid(workspace_id)) return std::optional<WorkspaceRole>();
    auto role = host_.workspaceRole(c.principal, workspace_id);
    if (!role) {
        if (role.error().http_status == 404) return std::optional<WorkspaceRole>();
        return role.error();
    }
    return parseWorkspaceRole(*role);
}

Result<LearningService::Opened> LearningService::open(PluginTx& tx, const Caller& c,
                                                      const std::string& course_id, Operation op,
                                                      bool lock, bool own_item) {
    if (c.header && c.header->empty()) return workspaceRequired();
    auto loaded = store::loadCourse(tx, course_id, lock);
    if (!loaded) return loaded.error();
    if (!*loaded) return courseNotFound();
    Opened o{std::move(**loaded), {}};
    const Course& course = o.record.course;
    auto role = roleIn(c, course.workspace_id);
    if (!role) return role.error();
    o.ctx.workspace_role = *role;
    o.ctx.same_workspace = !c.header || *c.header == course.workspace_id;
    if (const Member* m = o.record.member(c.principal.user_id)) o.ctx.persona = m->persona;
    o.ctx.course_creator = course.created_by == c.principal.user_id;
    o.ctx.archived = course.status == CourseStatus::kArchived;
    o.ctx.own_item = own_item;
    if (auto allowed = authorize(op, o.ctx); !allowed) return allowed.error();
    return o;
}

Status LearningService::emit(PluginTx& tx, const Caller& c, const std::string& type,
                             const std::string& resource_type, const std::string& resource_id,
                             const std::string& workspace_id, json payload) {
    plugin::PluginEvent e;
    e.type = type;
    e.resource_type = resource_type;
    e.resource_id = resource_id;
    e.workspace_id = workspace_id;
    e.actor_id = c.principal.user_id;
    e.payload = std::move(payload);
    return tx.emitEvent(e);
}

json LearningService::courseView(const store::CourseRecord& r) const {
    json j = courseJson(r.course);
    j["curriculum"] = curriculumJson(r.curriculum);
    json members = json::array();
    for (const auto& m : r.members) members.push_back(memberJson(m));
    j["members"] = std::move(members);
    json assets = json::array();
    for (const auto& a : r.assets) assets.push_back(assetJson(a));
    j["assets"] = std::move(assets);
    j["created_at"] = r.created_at;
    j["updated_at"] = r.updated_at;
    return j;
}

Result<std::map<std::string, DocumentInfo>> LearningService::documentsOf(
    const Caller& c, const std::string& workspace_id) {
    auto listed = host_.listDocuments(c.principal, workspace_id);
    if (!listed) return listed.error();
    std::map<std::string, DocumentInfo> out;
    for (const auto& d : listed->value("documents", json::array())) {
        DocumentInfo info{textOf(d, "id"), textOf(d, "filename"), fileType(d), textOf(d, "status")};
        out.emplace(info.id, std::move(info));
    }
    return out;
}

Result<Scope> LearningService::scopeOf(const Caller& c, const store::CourseRecord& r,
                                       const std::string& module_id, const std::string& lesson_id) {
    auto documents = documentsOf(c, r.course.workspace_id);
    if (!documents) return documents.error();
    return resolveScope(r.course, r.curriculum, r.assets, *documents, module_id, lesson_id);
}

Result<json> LearningService::listCourses(const Caller& c, const std::string& workspace_id) {
    if (auto s = checkHeader(c, workspace_id); !s) return s.error();
    auto role = roleIn(c, workspace_id);
    if (!role) return role.error();
    AccessContext ctx;
    ctx.workspace_role = *role;
    if (auto allowed = authorize(Operation::kListCourses, ctx); !allowed) return allowed.error();
    auto courses =
        host_.transact([&](PluginTx& tx) { return store::listCourses(tx, workspace_id); });
    if (!courses) return courses.error();
    json items = json::array();
    for (const auto& r : *courses) {
        json j = courseView(r);
        const Member* me = r.member(c.principal.user_id);
        j["my_persona"] = me ? json(toString(me->persona)) : json();
        items.push_back(std::move(j));
    }
    return json{{"workspace_id", workspace_id}, {"courses", items}, {"count", items.size()}};
}

Result<json> LearningService::createCourse(const Caller& c, const json& body) {
    const std::string workspace_id = textOf(body, "workspace_id");
    if (auto s = checkHeader(c, workspace_id); !s) return s.error();
    auto role = roleIn(c, workspace_id);
    if (!role) return role.error();
    AccessContext ctx;
    ctx.workspace_role = *role;
    if (auto allowed = authorize(Operation::kCreateCourse, ctx); !allowed) return allowed.error();
    auto course = courseFromCreate(body);
    if (!course) return course.error();
    course->id = store::newId();
    course->workspace_id = workspace_id;
    course->created_by = c.principal.user_id;
    // The creator's e-mail as the workspace knows it (a token need not carry one).
    auto members = host_.workspaceMembers(c.principal, workspace_id);
    if (!members) return members.error();
    Member creator{c.principal.user_id, lowered(c.principal.email), Persona::kTeacher};
    for (const auto& m : *members) {
        if (m.user_id == c.principal.user_id) creator.email = lowered(m.email);
    }
    return host_.transact([&](PluginTx& tx) -> Result<json> {
        if (auto s = store::insertCourse(tx, *course); !s) return s.error();
        if (auto s = store::upsertMember(tx, course->id, creator); !s) return s.error();
        if (auto s = emit(tx, c, "learning.course.created", "learning_course", course->id,
                          workspace_id, {{"course_id", course->id}, {"status", "active"}});
            !s) {
            return s.error();
        }
        auto saved = store::loadCourse(tx, course->id, false);
        if (!saved) return saved.error();
        return courseView(**saved);
    });
}

Result<json> LearningService::getCourse(const Caller& c, const std::string& course_id) {
    return host_.transact([&](PluginTx& tx) -> Result<json> {
        auto o = open(tx, c, course_id, Operation::kGetCourse, false);
        if (!o) return o.error();
        json j = courseView(o->record);
        j["my_persona"] = o->ctx.persona ? json(toString(*o->ctx.persona)) : json();
        return j;
    });
}

Result<json> LearningService::updateCourse(const Caller& c, const std::string& course_id,
                                           const json& body) {
    return host_.transact([&](PluginTx& tx) -> Result<json> {
        auto o = open(tx, c, course_id, Operation::kUpdateCourse, true);
        if (!o) return o.error();
        auto updated = applyCourseUpdate(o->record.course, body);
        if (!updated) return updated.error();
        if (auto s = store::updateCourse(tx, *updated); !s) return s.error();
        if (auto s = emit(tx, c, "learning.course.updated", "learning_course", course_id,
                          updated->workspace_id,
                          {{"course_id", course_id}, {"status", toString(updated->status)}});
            !s) {
            return s.error();
        }
        auto saved = store::loadCourse(tx, course_id, false);
        if (!saved) return saved.error();
        return courseView(**saved);
    });
}

Result<json> LearningService::deleteCourse(const Caller& c, const std::string& course_id) {
    return host_.transact([&](PluginTx& tx) -> Result<json> {
        auto o = open(tx, c, course_id, Operation::kDeleteCourse, true);
        if (!o) return o.error();
        if (auto s = store::deleteCourse(tx, course_id); !s) return s.error();
        if (auto s = emit(tx, c, "learning.course.deleted", "learning_course", course_id,
                          o->record.course.workspace_id, {{"course_id", course_id}});
            !s) {
            return s.error();
        }
        return json{{"id", course_id}, {"deleted", true}};
    });
}

Result<json> LearningService::saveCurriculum(const Caller& c, const std::string& course_id,
                                             const json& body) {
    return host_.transact([&](PluginTx& tx) -> Result<json> {
        auto o = open(tx, c, course_id, Operation::kSaveCurriculum, true);
        if (!o) return o.error();
        auto change = replaceCurriculum(o->record.curriculum, body, store::newId);
        if (!change) return change.error();
        if (auto s = store::saveCurriculum(tx, course_id, *change); !s) return s.error();
        auto saved = store::loadCourse(tx, course_id, false);
        if (!saved) return saved.error();
        json j = courseView(**saved);
        j["removed_module_ids"] = change->removed_module_ids;
        j["removed_lesson_ids"] = change->removed_lesson_ids;
        return j;
    });
}

Result<json> LearningService::attachContent(const Caller& c, const std::string& course_id,
                                            const json& body) {
    // The document as the caller sees it; one outside the course's workspace is not told apart
    // from one that does not exist.
    std::optional<DocumentInfo> document;
    std::string document_workspace;
    if (auto d = host_.getDocument(c.principal, textOf(body, "document_id"))) {
        document = DocumentInfo{textOf(*d, "id"), textOf(*d, "filename"), fileType(*d),
                                textOf(*d, "status")};
        document_workspace = textOf(*d, "workspace_id");
    } else if (d.error().http_status != 404) {
        return d.error();
    }
    return host_.transact([&](PluginTx& tx) -> Result<json> {
        auto o = open(tx, c, course_id, Operation::kAttachContent, true);
        if (!o) return o.error();
        const bool in_workspace = document && document_workspace == o->record.course.workspace_id;
        auto asset = assetFromCreate(body, o->record.curriculum,
                                     in_workspace ? &*document : nullptr, o->record.assets);
        if (!asset) return asset.error();
        asset->id = store::newId();
        if (auto s = store::insertAsset(tx, course_id, *asset); !s) return s.error();
        if (auto s =
                emit(tx, c, "learning.content.attached", "learning_course", course_id,
                     o->record.course.workspace_id,
                     {{"course_id", course_id},
                      {"asset_id", asset->id},
                      {"document_id", asset->document_id},
                      {"module_id", asset->module_id.empty() ? json() : json(asset->module_id)},
                      {"lesson_id", asset->lesson_id.empty() ? json() : json(asset->lesson_id)}});
            !s) {
            return s.error();
        }
        json j = assetJson(*asset);
        j["course_id"] = course_id;
        return j;
    });
}

Result<json> LearningService::removeContent(const Caller& c, const std::string& course_id,
                                            const std::string& asset_id) {
    return host_.transact([&](PluginTx& tx) -> Result<json> {
        auto o = open(tx, c, course_id, Operation::kRemoveContent, true);
        if (!o) return o.error();
        auto removed = store::deleteAsset(tx, course_id, asset_id);
        if (!removed) return removed.error();
        if (!*removed) return Error{"asset_not_found", "asset not found", 404};
        return json{{"course_id", course_id}, {"asset_id", asset_id}, {"deleted", true}};
    });
}

Result<json> LearningService::enroll(const Caller& c, const std::string& course_id,
                                     const json& body) {
    auto request = memberFromCreate(body);
    return host_.transact([&](PluginTx& tx) -> Result<json> {
        // Only managers may learn whether an e-mail has an account: access comes first.
        auto o = open(tx, c, course_id, Operation::kEnrollMember, true);
        if (!o) return o.error();
        if (!request) return request.error();
        // Who the e-mail is: a member, an account outside the workspace (""), or nobody.
        std::optional<std::string> user_id;
        bool workspace_member = false;
        auto found =
            host_.findWorkspaceMember(c.principal, o->record.course.workspace_id, request->email);
        if (found) {
            user_id = found->user_id;
            workspace_member = true;
        } else if (found.error().code == "member_not_found") {
            user_id = "";
        } else if (found.error().code != "user_not_found") {
            return found.error();
        }
        auto members = learning::enroll(o->record.members, *request, user_id, workspace_member,
                                        o->record.course.created_by);
        if (!members) return members.error();
        const Member* enrolled = nullptr;
        for (const auto& m : *members) {
            if (m.user_id == *user_id) enrolled = &m;
        }
        if (!enrolled) return Error::internal("the enrolled member is missing");
        if (auto s = store::upsertMember(tx, course_id, *enrolled); !s) return s.error();
        if (auto s = emit(tx, c, "learning.member.enrolled", "learning_course", course_id,
                          o->record.course.workspace_id,
                          {{"course_id", course_id},
                           {"user_id", enrolled->user_id},
                           {"persona", toString(enrolled->persona)}});
            !s) {
            return s.error();
        }
        json j = memberJson(*enrolled);
        j["course_id"] = course_id;
        return j;
    });
}

Result<json> LearningService::removeMember(const Caller& c, const std::string& course_id,
                                           const std::string& user_id) {
    return host_.transact([&](PluginTx& tx) -> Result<json> {
        auto loaded = open(tx, c, course_id, Operation::kGetCourse, true);
        if (!loaded) return loaded.error();
        AccessContext ctx = loaded->ctx;
        ctx.target_is_creator = user_id == loaded->record.course.created_by;
        if (auto allowed = authorize(Operation::kRemoveMember, ctx); !allowed) {
            return allowed.error();
        }
        if (!loaded->record.member(user_id)) {
            return Error{"member_not_found", "the course has no such member", 404};
        }
        if (auto s = store::deleteMember(tx, course_id, user_id); !s) return s.error();
        if (auto s = emit(tx, c, "learning.member.removed", "learning_course", course_id,
                          loaded->record.course.workspace_id,
                          {{"course_id", course_id}, {"user_id", user_id}});
            !s) {
            return s.error();
        }
        return json{{"course_id", course_id}, {"user_id", user_id}, {"removed", true}};
    });
}

Result<json> LearningService::scope(const Caller& c, const std::string& course_id,
                                    const std::string& module_id, const std::string& lesson_id) {
    auto o = host_.transact(
        [&](PluginTx& tx) { return open(tx, c, course_id, Operation::kResolveScope, false); });
    if (!o) return o.error();
    auto resolved = scopeOf(c, o->record, module_id, lesson_id);
    if (!resolved) return resolved.error();
    return scopeJson(course_id, *resolved);
}

Result<json> LearningService::listDocuments(const Caller& c, const std::string& workspace_id) {
    if (auto s = checkHeader(c, workspace_id); !s) return s.error();
    auto role = roleIn(c, workspace_id);
    if (!role) return role.error();
    AccessContext ctx;
    ctx.workspace_role = *role;
    if (auto allowed = authorize(Operation::kListDocuments, ctx); !allowed) {
        return allowed.error();
    }
    auto listed = host_.listDocuments(c.principal, workspace_id);
    if (!listed) return listed.error();
    json items = json::array();
    for (const auto& d : listed->value("documents", json::array())) {
        items.push_back({{"id", d.value("id", json())},
                         {"original_name", d.value("filename", json())},
                         {"file_type", fileType(d)},
                         {"doc_type", d.value("doc_type", json())},
                         {"status", d.value("status", json())},
                         {"pages", d.value("pages", json())},
                         {"chunk_count", json()},
                         {"created_at", d.value("created_at", json())}});
    }
    return json{{"workspace_id", workspace_id}, {"documents", items}, {"count", items.size()}};
}

}  // namespace docintel::learning

// Who may do what in a team workspace. The matrix: each of the ten workspace operations, done
// by an owner, an editor and a viewer, on the caller's own workspace and on a foreign one (a
// workspace of the same owner the caller does not belong to), with the effect — or its
// absence — checked through the API. Then the rules around it: the last owner, deletion, the
// caller's workspace list and the workspace context.

#include <gtest/gtest.h>

#include <atomic>
#include <cctype>
#include <map>
#include <ostream>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "common/id.h"
#include "support/test_server.h"

namespace docintel::test {
namespace {

/// One server for the whole binary, shared by every suite below.
class ServerEnvironment : public ::testing::Environment {
  public:
    void SetUp() override { server_ = new TestServer(); }
    void TearDown() override {
        delete server_;
        server_ = nullptr;
    }
    static TestServer& server() { return *server_; }

  private:
    static TestServer* server_;
};
TestServer* ServerEnvironment::server_ = nullptr;
[[maybe_unused]] ::testing::Environment* const kServerEnvironment =
    ::testing::AddGlobalTestEnvironment(new ServerEnvironment);

TestServer& server() { return ServerEnvironment::server(); }

/// A user with a token carrying every scope, so only the workspace role decides.
struct Actor {
    std::string id;
    std::string email;
    std::string token;
};

Actor newActor(const std::string& label) {
    static std::atomic<int> counter{0};
    Actor a;
    a.email = label + "-" + std::to_string(++counter) + "@authz.example";
    a.id = server().createUser(a.email);
    a.token = server().token(a.id, TestServer::allScopes(), 3600);
    return a;
}

std::string wsPath(const std::string& workspace_id) { return "/api/v1/workspaces/" + workspace_id; }

Response call(const Actor& as, const std::string& method, const std::string& path,
              const nlohmann::json& body = nullptr) {
    return server().request(method, path, body.is_null() ? std::string() : body.dump(), as.token);
}

std::string createWorkspace(const Actor& owner, const std::string& name) {
    const auto r = call(owner, "POST", "/api/v1/workspaces", {{"name", name}});
    EXPECT_EQ(r.status, 201) << r.body;
    return r.json().value("id", "");
}

void addMember(const Actor& by, const std::string& workspace_id, const Actor& who,
               const std::string& role) {
    const auto r =
        call(by, "POST", wsPath(workspace_id) + "/members", {{"email", who.email}, {"role", role}});
    ASSERT_EQ(r.status, 201) << r.body;
}

void expectError(const Response& r, int status, const std::string& code) {
    EXPECT_EQ(r.status, status) << r.body;
    const auto body = r.json();
    ASSERT_TRUE(body.is_object()) << r.body;
    EXPECT_EQ(body.value("code", ""), code) << r.body;
    EXPECT_TRUE(body["detail"].is_string()) << r.body;
    EXPECT_TRUE(body["trace_id"].is_string()) << r.body;
}

/// A workspace as one of its members sees it through GET: name and members' roles.
struct View {
    bool exists = false;
    std::string name;
    std::map<std::string, std::string> roles;  ///< user id → role
    bool operator==(const View&) const = default;
};

void PrintTo(const View& v, std::ostream* os) {
    if (!v.exists) {
        *os << "(not visible)";
        return;
    }
    *os << "\"" << v.name << "\" {";
    for (const auto& [user, role] : v.roles) *os << " " << user << ":" << role;
    *os << " }";
}

View viewAs(const Actor& member, const std::string& workspace_id) {
    const auto r = call(member, "GET", wsPath(workspace_id));
    View v;
    if (r.status == 404) return v;
    EXPECT_EQ(r.status, 200) << r.body;
    const auto j = r.json();
    v.exists = true;
    v.name = j.value("name", "");
    for (const auto& m : j["members"]) v.roles[m["user_id"]] = m["role"];
    return v;
}

/// The caller's workspaces (GET /api/v1/workspaces) as id → role.
std::map<std::string, std::string> listedRoles(const Actor& as,
                                               const std::string& path = "/api/v1/workspaces") {
    const auto r = call(as, "GET", path);
    EXPECT_EQ(r.status, 200) << r.body;
    const auto j = r.json();
    std::map<std::string, std::string> out;
    for (const auto& w : j["workspaces"]) out[w["id"]] = w["role"];
    EXPECT_EQ(j.value("count", -1), static_cast<long long>(out.size())) << r.body;
    return out;
}

nlohmann::json activeWorkspace(const Actor& as) {
    const auto r = call(as, "GET", "/api/v1/me");
    EXPECT_EQ(r.status, 200) << r.body;
    return r.json()["active_workspace_id"];
}

// ---- The matrix ---------------------------------------------------------------------------

enum class Op {
    kCreate,
    kList,
    kGet,
    kRename,
    kDelete,
    kListDocuments,
    kLeave,
    kAddMember,
    kUpdateMember,
    kRemoveMember,
};
enum class Where { kOwn, kForeign };

/// The expected status on the caller's own workspace, by the caller's role there. 403 is
/// `forbidden`. On a foreign workspace every operation that names one is 404
/// `workspace_not_found`; create and list name none.
struct Rule {
    Op op;
    const char* name;
    int owner;
    int editor;
    int viewer;
};
// clang-format off
constexpr Rule kRules[] = {
    // operation          name              owner editor viewer
    {Op::kCreate,         "Create",         201,  201,   201},
    {Op::kList,           "List",           200,  200,   200},
    {Op::kGet,            "Get",            200,  200,   200},
    {Op::kListDocuments,  "ListDocuments",  200,  200,   200},
    {Op::kLeave,          "Leave",          200,  200,   200},
    {Op::kRename,         "Rename",         200,  403,   403},
    {Op::kDelete,         "Delete",         200,  403,   403},
    {Op::kAddMember,      "AddMember",      201,  403,   403},
    {Op::kUpdateMember,   "UpdateMember",   200,  403,   403},
    {Op::kRemoveMember,   "RemoveMember",   200,  403,   403},
};
// clang-format on

const Rule& ruleFor(Op op) {
    for (const auto& rule : kRules) {
        if (rule.op == op) return rule;
    }
    throw std::logic_error("no rule");
}

void PrintTo(Op op, std::ostream* os) { *os << ruleFor(op).name; }
void PrintTo(Where where, std::ostream* os) { *os << (where == Where::kOwn ? "own" : "foreign"); }

int expectedStatus(Op op, const std::string& role, Where where) {
    const Rule& rule = ruleFor(op);
    if (where == Where::kForeign) {
        return op == Op::kCreate ? rule.owner : op == Op::kList ? 200 : 404;
    }
    return role == "owner" ? rule.owner : role == "editor" ? rule.editor : rule.viewer;
}

/// The cast of one matrix case. `owner` created and owns both workspaces; `caller` holds the
/// role under test in `own` and is no member of `foreign`; `target` is an editor in both (the
/// member the member operations act on); `outsider` belongs nowhere (the one added).
struct Scene {
    Actor owner;
    Actor caller;
    Actor target;
    Actor outsider;
    std::string own;
    std::string foreign;
};

Scene makeScene(const std::string& role) {
    Scene s{
        newActor("owner"), newActor("caller"), newActor("target"), newActor("outsider"), {}, {}};
    s.own = createWorkspace(s.owner, "own");
    s.foreign = createWorkspace(s.owner, "foreign");
    addMember(s.owner, s.own, s.caller, role);
    addMember(s.owner, s.own, s.target, "editor");
    addMember(s.owner, s.foreign, s.target, "editor");
    return s;
}

Response perform(Op op, const Scene& s, const std::string& ws) {
    switch (op) {
        case Op::kCreate:
            return call(s.caller, "POST", "/api/v1/workspaces", {{"name", "made by the caller"}});
        case Op::kList:
            return call(s.caller, "GET", "/api/v1/workspaces");
        case Op::kGet:
            return call(s.caller, "GET", wsPath(ws));
        case Op::kRename:
            return call(s.caller, "PATCH", wsPath(ws), {{"name", "renamed"}});
        case Op::kDelete:
            return call(s.caller, "DELETE", wsPath(ws));
        case Op::kListDocuments:
            return call(s.caller, "GET", wsPath(ws) + "/documents");
        case Op::kLeave:
            return call(s.caller, "POST", wsPath(ws) + "/leave");
        case Op::kAddMember:
            return call(s.caller, "POST", wsPath(ws) + "/members",
                        {{"email", s.outsider.email}, {"role", "viewer"}});
        case Op::kUpdateMember:
            return call(s.caller, "PATCH", wsPath(ws) + "/members/" + s.target.id,
                        {{"role", "viewer"}});
        case Op::kRemoveMember:
            return call(s.caller, "DELETE", wsPath(ws) + "/members/" + s.target.id);
    }
    throw std::logic_error("unknown op");
}

/// What an allowed operation must have done (or, for reads, shown), seen through the API.
void expectEffect(Op op, const Scene& s, const std::string& ws, Where where,
                  const std::string& role, const Response& r, const View& before) {
    const auto body = r.json();
    View after = before;
    switch (op) {
        case Op::kCreate: {
            EXPECT_EQ(body.value("name", ""), "made by the caller");
            EXPECT_EQ(body.value("role", ""), "owner");
            EXPECT_EQ(body.value("member_count", 0), 1);
            const std::string created = body.value("id", "");
            EXPECT_EQ(listedRoles(s.caller)[created], "owner");
            const View mine = viewAs(s.caller, created);
            EXPECT_EQ(mine.roles, (std::map<std::string, std::string>{{s.caller.id, "owner"}}));
            break;
        }
        case Op::kList: {
            std::map<std::string, std::string> listed;
            for (const auto& w : body["workspaces"]) listed[w["id"]] = w["role"];
            if (where == Where::kOwn) {
                EXPECT_EQ(listed, (std::map<std::string, std::string>{{ws, role}}));
            } else {
                EXPECT_FALSE(listed.count(ws)) << "a foreign workspace is listed";
                EXPECT_EQ(listed, (std::map<std::string, std::string>{{s.own, role}}));
            }
            break;
        }
        case Op::kGet: {
            EXPECT_EQ(body.value("id", ""), ws);
            EXPECT_EQ(body.value("name", ""), "own");
            EXPECT_EQ(body.value("role", ""), role);
            std::map<std::string, std::string> members;
            for (const auto& m : body["members"]) members[m["user_id"]] = m["role"];
            EXPECT_EQ(members,
                      (std::map<std::string, std::string>{
                          {s.owner.id, "owner"}, {s.caller.id, role}, {s.target.id, "editor"}}));
            break;
        }
        case Op::kListDocuments:
            EXPECT_EQ(body.value("workspace_id", ""), ws);
            EXPECT_EQ(body["documents"], nlohmann::json::array());
            break;
        case Op::kRename:
            EXPECT_EQ(body.value("name", ""), "renamed");
            EXPECT_EQ(body.value("role", ""), role);
            EXPECT_EQ(body.value("member_count", 0), static_cast<int>(before.roles.size()));
            after.name = "renamed";
            break;
        case Op::kDelete: {
            after = View{};
            expectError(call(s.owner, "GET", wsPath(ws)), 404, "workspace_not_found");
            expectError(call(s.caller, "GET", wsPath(ws)), 404, "workspace_not_found");
            EXPECT_EQ(server().db().scalar("SELECT count(*) FROM workspace_members WHERE "
                                           "workspace_id = '" +
                                           ws + "'"),
                      "0");
            EXPECT_EQ(
                server().db().scalar("SELECT count(*) FROM workspaces WHERE id = '" + ws + "'"),
                "0");
            break;
        }
        case Op::kLeave:
            after.roles.erase(s.caller.id);
            expectError(call(s.caller, "GET", wsPath(ws)), 404, "workspace_not_found");
            EXPECT_FALSE(listedRoles(s.caller).count(ws));
            break;
        case Op::kAddMember:
            EXPECT_EQ(body.value("user_id", ""), s.outsider.id);
            EXPECT_EQ(body.value("role", ""), "viewer");
            after.roles[s.outsider.id] = "viewer";
            EXPECT_EQ(listedRoles(s.outsider)[ws], "viewer");
            break;
        case Op::kUpdateMember:
            EXPECT_EQ(body.value("user_id", ""), s.target.id);
            EXPECT_EQ(body.value("role", ""), "viewer");
            after.roles[s.target.id] = "viewer";
            break;
        case Op::kRemoveMember:
            after.roles.erase(s.target.id);
            expectError(call(s.target, "GET", wsPath(ws)), 404, "workspace_not_found");
            break;
    }
    EXPECT_EQ(viewAs(s.owner, ws), after);
}

using MatrixCase = std::tuple<Op, std::string, Where>;

class WorkspaceMatrix : public ::testing::TestWithParam<MatrixCase> {};

TEST_P(WorkspaceMatrix, DoesWhatTheRoleAllowsAndNothingElse) {
    const auto& [op, role, where] = GetParam();
    const Scene s = makeScene(role);
    const std::string& ws = where == Where::kOwn ? s.own : s.foreign;
    const std::string& other = where == Where::kOwn ? s.foreign : s.own;
    const View before = viewAs(s.owner, ws);
    const View other_before = viewAs(s.owner, other);
    ASSERT_TRUE(before.exists && other_before.exists);

    const Response r = perform(op, s, ws);
    const int expected = expectedStatus(op, role, where);
    ASSERT_EQ(r.status, expected) << r.body;
    EXPECT_EQ(viewAs(s.owner, other), other_before) << "the other workspace changed";

    if (expected == 403) expectError(r, 403, "forbidden");
    if (expected == 404) {
        expectError(r, 404, "workspace_not_found");
        // Not revealed: the answer is the one for a workspace that never existed.
        const Response missing = perform(op, s, common::newUuid());
        EXPECT_EQ(missing.status, r.status);
        EXPECT_EQ(missing.json().value("code", ""), r.json().value("code", ""));
        EXPECT_EQ(missing.json().value("detail", ""), r.json().value("detail", ""));
    }
    if (expected >= 400) {
        EXPECT_EQ(viewAs(s.owner, ws), before) << "a refused operation changed the workspace";
        EXPECT_EQ(listedRoles(s.outsider), (std::map<std::string, std::string>{}));
        return;
    }
    expectEffect(op, s, ws, where, role, r, before);
}

std::vector<Op> allOps() {
    std::vector<Op> ops;
    for (const auto& rule : kRules) ops.push_back(rule.op);
    return ops;
}

INSTANTIATE_TEST_SUITE_P(
    AllOperations, WorkspaceMatrix,
    ::testing::Combine(::testing::ValuesIn(allOps()),
                       ::testing::Values(std::string("owner"), std::string("editor"),
                                         std::string("viewer")),
                       ::testing::Values(Where::kOwn, Where::kForeign)),
    [](const ::testing::TestParamInfo<MatrixCase>& info) {
        std::string role = std::get<1>(info.param);
        role[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(role[0])));
        return std::string(ruleFor(std::get<0>(info.param)).name) + "_As" + role + "_" +
               (std::get<2>(info.param) == Where::kOwn ? "Own" : "Foreign");
    });

// ---- The rules around it ------------------------------------------------------------------

class WorkspaceRules : public ::testing::Test {};

TEST_F(WorkspaceRules, TheLastOwnerCannotLeaveUntilThereIsASecondOwner) {
    const Actor first = newActor("first");
    const Actor second = newActor("second");
    const std::string ws = createWorkspace(first, "one owner");
    const std::string leave = wsPath(ws) + "/leave";

    expectError(call(first, "POST", leave), 409, "last_owner");
    addMember(first, ws, second, "editor");
    expectError(call(first, "POST", leave), 409, "last_owner");  // an editor is no owner
    EXPECT_EQ(viewAs(first, ws).roles[first.id], "owner");

    ASSERT_EQ(
        call(first, "PATCH", wsPath(ws) + "/members/" + second.id, {{"role", "owner"}}).status,
        200);
    const auto r = call(first, "POST", leave);
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.json().value("left", false), true);
    EXPECT_EQ(viewAs(second, ws).roles, (std::map<std::string, std::string>{{second.id, "owner"}}));
    expectError(call(second, "POST", leave), 409, "last_owner");
}

TEST_F(WorkspaceRules, TheLastOwnerCannotBeDemotedUntilThereIsASecondOwner) {
    const Actor first = newActor("first");
    const Actor second = newActor("second");
    const std::string ws = createWorkspace(first, "one owner");
    const std::string first_member = wsPath(ws) + "/members/" + first.id;

    expectError(call(first, "PATCH", first_member, {{"role", "editor"}}), 409, "last_owner");
    expectError(call(first, "PATCH", first_member, {{"role", "viewer"}}), 409, "last_owner");
    const auto unchanged = call(first, "PATCH", first_member, {{"role", "owner"}});
    EXPECT_EQ(unchanged.status, 200) << "staying owner is no demotion: " << unchanged.body;
    EXPECT_EQ(viewAs(first, ws).roles[first.id], "owner");

    addMember(first, ws, second, "owner");
    const auto r = call(first, "PATCH", first_member, {{"role", "editor"}});
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(viewAs(second, ws).roles,
              (std::map<std::string, std::string>{{first.id, "editor"}, {second.id, "owner"}}));
    expectError(call(second, "PATCH", wsPath(ws) + "/members/" + second.id, {{"role", "viewer"}}),
                409, "last_owner");
}

TEST_F(WorkspaceRules, TheLastOwnerCannotBeRemovedUntilThereIsASecondOwner) {
    const Actor first = newActor("first");
    const Actor second = newActor("second");
    const std::string ws = createWorkspace(first, "one owner");

    expectError(call(first, "DELETE", wsPath(ws) + "/members/" + first.id), 409, "last_owner");
    EXPECT_EQ(viewAs(first, ws).roles, (std::map<std::string, std::string>{{first.id, "owner"}}));

    addMember(first, ws, second, "owner");
    const auto r = call(second, "DELETE", wsPath(ws) + "/members/" + first.id);
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(viewAs(second, ws).roles, (std::map<std::string, std::string>{{second.id, "owner"}}));
    expectError(call(first, "GET", wsPath(ws)), 404, "workspace_not_found");
    expectError(call(second, "DELETE", wsPath(ws) + "/members/" + second.id), 409, "last_owner");
}

TEST_F(WorkspaceRules, DeletingAWorkspaceRemovesItAndItsMembershipsAndNothingElse) {
    const Actor owner = newActor("owner");
    const Actor member = newActor("member");
    const std::string doomed = createWorkspace(owner, "doomed");
    const std::string kept = createWorkspace(owner, "kept");
    addMember(owner, doomed, member, "editor");
    addMember(owner, kept, member, "viewer");
    ASSERT_EQ(call(member, "POST", "/api/v1/workspace-context", {{"workspace_id", doomed}}).status,
              200);
    const View kept_before = viewAs(owner, kept);

    const auto r = call(owner, "DELETE", wsPath(doomed));
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.json().value("workspace_id", ""), doomed);

    expectError(call(owner, "GET", wsPath(doomed)), 404, "workspace_not_found");
    expectError(call(member, "GET", wsPath(doomed)), 404, "workspace_not_found");
    expectError(call(owner, "DELETE", wsPath(doomed)), 404, "workspace_not_found");
    EXPECT_EQ(server().db().scalar("SELECT count(*) FROM workspaces WHERE id = '" + doomed + "'"),
              "0");
    EXPECT_EQ(server().db().scalar("SELECT count(*) FROM workspace_members WHERE workspace_id = '" +
                                   doomed + "'"),
              "0");

    EXPECT_EQ(viewAs(owner, kept), kept_before);
    EXPECT_EQ(listedRoles(owner), (std::map<std::string, std::string>{{kept, "owner"}}));
    EXPECT_EQ(listedRoles(member), (std::map<std::string, std::string>{{kept, "viewer"}}));
    EXPECT_EQ(server().db().scalar("SELECT count(*) FROM users WHERE id IN ('" + owner.id + "', '" +
                                   member.id + "')"),
              "2");
    EXPECT_TRUE(activeWorkspace(member).is_null()) << "the deleted context falls back to personal";
}

TEST_F(WorkspaceRules, MyWorkspacesListsExactlyTheCallersWorkspacesWithTheirRoles) {
    const Actor me = newActor("me");
    const Actor other = newActor("other");
    const std::string owned = createWorkspace(me, "owned");
    const std::string edited = createWorkspace(other, "edited");
    const std::string viewed = createWorkspace(other, "viewed");
    const std::string foreign = createWorkspace(other, "foreign");
    addMember(other, edited, me, "editor");
    addMember(other, viewed, me, "viewer");

    const auto r = call(me, "GET", "/api/v1/me/workspaces");
    ASSERT_EQ(r.status, 200) << r.body;
    const auto body = r.json();
    EXPECT_TRUE(body["personal"]["workspace_id"].is_null()) << r.body;
    std::map<std::string, std::string> names;
    for (const auto& w : body["workspaces"]) names[w["id"]] = w["name"];
    EXPECT_EQ(names, (std::map<std::string, std::string>{
                         {owned, "owned"}, {edited, "edited"}, {viewed, "viewed"}}));
    EXPECT_EQ(listedRoles(me, "/api/v1/me/workspaces"),
              (std::map<std::string, std::string>{
                  {owned, "owner"}, {edited, "editor"}, {viewed, "viewer"}}));

    ASSERT_EQ(call(me, "POST", wsPath(viewed) + "/leave").status, 200);
    EXPECT_EQ(listedRoles(me, "/api/v1/me/workspaces"),
              (std::map<std::string, std::string>{{owned, "owner"}, {edited, "editor"}}));
    EXPECT_EQ(listedRoles(other, "/api/v1/me/workspaces"),
              (std::map<std::string, std::string>{
                  {edited, "owner"}, {viewed, "owner"}, {foreign, "owner"}}));
}

TEST_F(WorkspaceRules, TheWorkspaceContextIsOneOfTheCallersWorkspacesOrPersonal) {
    const Actor me = newActor("me");
    const Actor other = newActor("other");
    const std::string own = createWorkspace(me, "own");
    const std::string foreign = createWorkspace(other, "foreign");
    const std::string context = "/api/v1/workspace-context";
    EXPECT_TRUE(activeWorkspace(me).is_null());

    expectError(call(me, "POST", context, {{"workspace_id", foreign}}), 404, "workspace_not_found");
    EXPECT_TRUE(activeWorkspace(me).is_null());

    auto r = call(me, "POST", context, {{"workspace_id", own}});
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.json().value("workspace_id", ""), own);
    EXPECT_EQ(r.json().value("scope", ""), "workspace");
    EXPECT_EQ(activeWorkspace(me), own);

    expectError(call(me, "POST", context, {{"workspace_id", foreign}}), 404, "workspace_not_found");
    EXPECT_EQ(activeWorkspace(me), own) << "a refused selection keeps the current context";

    r = call(me, "POST", context, {{"workspace_id", nullptr}});
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_TRUE(r.json()["workspace_id"].is_null()) << r.body;
    EXPECT_EQ(r.json().value("scope", ""), "personal");
    EXPECT_TRUE(activeWorkspace(me).is_null());

    ASSERT_EQ(call(me, "POST", context, {{"workspace_id", own}}).status, 200);
    r = call(me, "POST", context, {{"workspace_id", "personal"}});
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.json().value("scope", ""), "personal");
    EXPECT_TRUE(activeWorkspace(me).is_null());
}

TEST_F(WorkspaceRules, AMemberCannotBeAddedTwiceNorAnUnknownEmailAdded) {
    const Actor owner = newActor("owner");
    const Actor member = newActor("member");
    const Actor defaulted = newActor("defaulted");
    const Actor stranger = newActor("stranger");
    const std::string ws = createWorkspace(owner, "members");
    addMember(owner, ws, member, "viewer");
    const View before = viewAs(owner, ws);
    const std::string members = wsPath(ws) + "/members";

    expectError(call(owner, "POST", members, {{"email", member.email}, {"role", "editor"}}), 409,
                "already_member");
    expectError(
        call(owner, "POST", members, {{"email", "nobody@authz.example"}, {"role", "editor"}}), 404,
        "user_not_found");
    EXPECT_EQ(viewAs(owner, ws), before);

    // A user who is not a member can be neither re-roled nor removed.
    expectError(call(owner, "PATCH", members + "/" + stranger.id, {{"role", "editor"}}), 404,
                "not_found");
    expectError(call(owner, "DELETE", members + "/" + stranger.id), 404, "not_found");
    EXPECT_EQ(viewAs(owner, ws), before);

    const auto r = call(owner, "POST", members, {{"email", defaulted.email}});
    ASSERT_EQ(r.status, 201) << r.body;
    EXPECT_EQ(r.json().value("role", ""), "viewer") << "the role defaults to viewer";
}

}  // namespace
}  // namespace docintel::test

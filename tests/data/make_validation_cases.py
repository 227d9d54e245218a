#!/usr/bin/env python3
"""Generate tests/data/validation_cases.json from schemas/api/*.schema.json.

The valid bodies (a minimal and a full one per schema, plus a few extras) are written by
hand below. Everything else is derived from the schema files:

  valid    + the full body with every nullable field set to null
           + the full body with every limit at its lowest / highest allowed value
           + the minimal body with an unknown extra property (extra properties are allowed)
  invalid  one case per rule, each breaking exactly one rule of the full body:
           every required field missing, minLength, maxLength, minimum, maximum,
           exclusiveMinimum, minItems, maxItems, enum, pattern, format date-time, wrong
           types (a non-object body, null on non-nullable fields, bool vs integer), wrong
           item types and, through $ref, the rules of nested schemas. Enum fields get only
           the enum case: a wrong type there would also break the enum (two errors).

Each invalid case is {"body", "loc", "type"}; loc starts with "body" and uses the full path
(e.g. ["body", "files", 0, "file_size"]); type is the error type the REST layer reports.

Usage:
  python3 tests/data/make_validation_cases.py          # write validation_cases.json
  python3 tests/data/make_validation_cases.py --check  # also validate every case with the
                                                       # python jsonschema package
"""
import copy
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA_DIR = os.path.normpath(os.path.join(HERE, "..", "..", "schemas", "api"))
OUT = os.path.join(HERE, "validation_cases.json")

# ---------------------------------------------------------------------------------------
# Hand-written valid bodies, in the spec's order (§2.1). "min": required fields only (plus
# what the spec requires but the schema cannot express); "full": every field set.
# ---------------------------------------------------------------------------------------
BODIES = {
    "WorkspaceCreateInput": {
        "min": {"name": "Research"},
        "full": {"name": "Legal team"},
    },
    "WorkspaceUpdateInput": {
        "min": {"name": "Renamed"},
        "full": {"name": "Legal team (EU)"},
    },
    "WorkspaceContextInput": {
        "min": {},
        "full": {"workspace_id": "ws_0f3a"},
    },
    "WorkspaceMemberInput": {
        "min": {"email": "ana@example.com"},
        "full": {"email": "ben@example.com", "role": "editor"},
    },
    "WorkspaceRoleInput": {
        "min": {"role": "viewer"},
        "full": {"role": "owner"},
    },
    "DirectUploadSessionRequest": {
        "min": {"filename": "report.pdf", "file_size": 1048576},
        "full": {"filename": "contract.docx",
                 "content_type": "application/vnd.openxmlformats-officedocument."
                                 "wordprocessingml.document",
                 "file_size": 52311, "workspace_id": "ws_0f3a", "redact_pii": True},
    },
    "DirectUploadCompleteRequest": {
        # storage_source_path is required by the spec; the schema leaves it out of
        # "required" because the alias gcs_source_path may be sent instead.
        "min": {"filename": "report.pdf", "file_size": 1048576, "doc_id": "doc_7c1e",
                "storage_source_path": "uploads/u_1/doc_7c1e/report.pdf"},
        "full": {"filename": "report.pdf", "content_type": "application/pdf",
                 "file_size": 1048576, "workspace_id": "ws_0f3a", "redact_pii": False,
                 "doc_id": "doc_7c1e",
                 "storage_source_path": "uploads/u_1/doc_7c1e/report.pdf"},
        "extra": [
            {"filename": "report.pdf", "file_size": 1048576, "doc_id": "doc_7c1e",
             "gcs_source_path": "uploads/u_1/doc_7c1e/report.pdf"},
        ],
    },
    "UploadFileManifest": {
        "min": {"filename": "a.txt", "file_size": 1},
        "full": {"filename": "scan.png", "content_type": "image/png", "file_size": 20480},
    },
    "VersionInput": {
        "min": {},
        "full": {"previous_document_id": "doc_1111", "change_summary": "Updated clause 4.2",
                 "changed_pages": [3, 4, 9]},
    },
    "BatchUploadRequest": {
        "min": {"files": [{"filename": "a.pdf", "file_size": 10}]},
        "full": {"files": [{"filename": "a.pdf", "content_type": "application/pdf",
                            "file_size": 2048},
                           {"filename": "b.txt", "content_type": "text/plain",
                            "file_size": 12}],
                 "workspace_id": "ws_0f3a", "redact_pii": True,
                 "idempotency_key": "batch-2025-06-01-001"},
    },
    "CompleteBatchUploadRequest": {
        "min": {},
        "full": {"document_ids": ["doc_1", "doc_2"], "concurrency": 5},
    },
    "DocumentBatchRequest": {
        "min": {"document_ids": ["doc_1"]},
        "full": {"document_ids": ["doc_1", "doc_2", "doc_3"], "workspace_id": "ws_0f3a",
                 "concurrency": 4, "force": True, "idempotency_key": "embed-run-42"},
    },
    "WorkspaceSummaryRequest": {
        "min": {"workspace_id": "ws_0f3a"},
        "full": {"workspace_id": "ws_0f3a", "document_ids": ["doc_1", "doc_2"],
                 "summary_type": "custom", "custom_prompt": "List every payment deadline.",
                 "redact_pii": True, "language": "es", "concurrency": 4,
                 "idempotency_key": "summary-7"},
    },
    "ChatRequest": {
        "min": {"question": "What is the notice period?", "document_ids": ["doc_1"]},
        "full": {"question": "And for the landlord?", "document_ids": ["doc_1", "doc_2"],
                 "history": [{"role": "user", "content": "What is the notice period?"},
                             {"role": "assistant", "content": "30 days [1]."}],
                 "workspace_id": "ws_0f3a", "redact_pii": True, "agent_mode": "force",
                 "response_language": "es"},
        "extra": [
            {"question": "Anything?", "document_ids": []},
        ],
    },
    "SummarizeRequest": {
        "min": {},
        "full": {"summary_type": "bullets", "custom_prompt": "", "chunk_indices": [0, 1, 5],
                 "redact_pii": True},
    },
    "CourseCreate": {
        "min": {"workspace_id": "ws_0f3a", "title": "Biology 101"},
        "full": {"workspace_id": "ws_0f3a", "title": "Introduction to Statistics",
                 "course_code": "STAT-101", "semester": "Fall 2025",
                 "description": "Descriptive statistics, probability and inference.",
                 "instructor_name": "Dr. Rivera",
                 "objectives": ["Compute summary statistics", "Run a t-test"]},
    },
    "CourseUpdate": {
        "min": {},
        "full": {"title": "Statistics I", "course_code": "STAT-101A", "semester": "Spring 2026",
                 "description": "Revised.", "instructor_name": "Dr. Okafor",
                 "objectives": ["Interpret p-values"], "status": "archived"},
    },
    "CurriculumSave": {
        "min": {},
        "full": {"modules": [{"title": "Week 1", "lessons": [{"title": "Sampling"}]},
                             {"title": "Week 2", "lessons": []}]},
    },
    "AssetCreate": {
        "min": {"document_id": "doc_1"},
        "full": {"document_id": "doc_1", "module_id": "mod_1", "lesson_id": "les_1",
                 "title": "Lecture slides"},
    },
    "MemberCreate": {
        "min": {"email": "student@example.edu"},
        "full": {"email": "advisor@example.edu", "persona": "advisor"},
    },
    "ArtifactCreate": {
        "min": {"artifact_type": "summary", "content": "x"},
        "full": {"artifact_type": "flashcards", "title": "Week 1 cards",
                 "content": "Q: What is a sample?\nA: A subset of a population.",
                 "source_document_ids": ["doc_1"], "module_id": "mod_1",
                 "lesson_id": "les_1"},
    },
    "QuizAttemptCreate": {
        "min": {},
        "full": {"answers": {"q1": ["b"], "q2": ["a", "c"], "q3": []}, "replace": True},
    },
    "QuestionCreate": {
        "min": {"question": "Can I get an extension?"},
        "full": {"target_role": "advisor", "question": "Which elective fits my plan?",
                 "context": {"course_id": "crs_1", "lesson_id": "les_2"}},
    },
    "QuestionUpdate": {
        "min": {},
        "full": {"answer": "Yes, until Friday.", "status": "answered",
                 "assigned_to": "usr_teacher_1"},
    },
    "LearningTutorRequest": {
        "min": {"question": "Explain the central limit theorem."},
        "full": {"question": "Give me an example.", "module_id": "mod_1", "lesson_id": "les_1",
                 "history": [{"role": "user", "content": "Explain the CLT."},
                             {"role": "assistant", "content": "Sample means tend to ..."}],
                 "response_language": "hi", "redact_pii": True},
    },
    "SubscriptionInput": {
        "min": {},
        "full": {"event_types": ["document.embedded", "batch.completed"],
                 "workspace_id": "ws_0f3a", "resource_type": "document",
                 "resource_id": "doc_1", "webhook_url": "https://hooks.example.com/docintel"},
    },
    "ArtifactInput": {
        "min": {"artifact_type": "memo", "title": "Q2 memo", "content": {}},
        "full": {"artifact_type": "risk_report", "title": "Lease risk report",
                 "content": {"risks": [{"clause": "4.2", "level": "high"}]},
                 "workspace_id": "ws_0f3a", "source_document_ids": ["doc_1", "doc_2"],
                 "source_trace_id": "trc_9a8b", "status": "reviewed"},
    },
    "EvaluationInput": {
        "min": {"trace_id": "trc_9a8b"},
        "full": {"trace_id": "trc_9a8b", "evaluation_type": "citation"},
    },
    "ReviewTaskInput": {
        "min": {"vertical": "lease", "run_id": "run_1", "title": "Review lease abstract"},
        "full": {"vertical": "healthcare", "run_id": "run_2", "title": "Check discharge packet",
                 "workspace_id": "ws_0f3a", "priority": "urgent",
                 "due_at": "2025-07-01T17:00:00Z", "metadata": {"packet": "discharge"}},
        "extra": [
            {"vertical": "talent_v2", "run_id": "run_3", "title": "ok",
             "due_at": "2025-07-01T17:00:00.123+02:00"},
        ],
    },
    "ReviewDecisionInput": {
        "min": {"decision": "approved"},
        "full": {"decision": "changes_requested", "reviewer_notes": "Fix the dosage table."},
    },
}

# Wrong value per JSON type, and the error type reported for it.
WRONG = {
    "string": [(123, "string_type")],
    "integer": [("3", "int_type"), (2.5, "int_type"), (True, "int_type")],
    "number": [("3", "float_type")],
    "boolean": [("true", "bool_type"), (1, "bool_type")],
    "array": [({}, "list_type")],
    "object": [([], "dict_type")],
}
TYPE_ERROR = {t: cases[0][1] for t, cases in WRONG.items()}


def load_schemas():
    schemas = {}
    for fn in sorted(os.listdir(SCHEMA_DIR)):
        if fn.endswith(".schema.json"):
            with open(os.path.join(SCHEMA_DIR, fn)) as f:
                schemas[fn] = json.load(f)
    return schemas


SCHEMAS = load_schemas()


def resolve(ps):
    return SCHEMAS[ps["$ref"]] if "$ref" in ps else ps


def types_of(ps):
    t = ps.get("type")
    return t if isinstance(t, list) else [t]


def base_type(ps):
    return [t for t in types_of(ps) if t != "null"][0]


def nullable(ps):
    return "null" in types_of(ps)


def sample_item(items_schema, i):
    """A valid array item for boundary bodies (only simple item schemas are needed)."""
    t = base_type(resolve(items_schema)) if items_schema else "string"
    if "$ref" in items_schema:
        return {"filename": f"f{i}.txt", "file_size": i + 1}
    return {"string": f"id_{i}", "integer": i + 1, "object": {}, "boolean": False}[t]


def with_value(body, path, value):
    b = copy.deepcopy(body)
    cur = b
    for k in path[:-1]:
        cur = cur[k]
    cur[path[-1]] = value
    return b


def without(body, path):
    b = copy.deepcopy(body)
    cur = b
    for k in path[:-1]:
        cur = cur[k]
    del cur[path[-1]]
    return b


def a_string(n):
    # "a"* matches the only pattern in use (^[a-z][a-z0-9_]*$) so length cases stay single-rule.
    return "a" * n


def value_cases(ps, path):
    """(bad value, error type, loc suffix relative to path) for one property schema."""
    ps = resolve(ps)
    out = []
    t = base_type(ps)
    if "enum" in ps:
        out.append(("not_a_valid_value", "enum", []))
    else:
        for v, et in WRONG[t]:
            out.append((v, et, []))
    if not nullable(ps) and "enum" not in ps:
        # (a wrong type on an enum field breaks both "type" and "enum", so enum fields only
        # get the enum case)
        out.append((None, TYPE_ERROR[t], []))
    if "minLength" in ps and ps["minLength"] > 0:
        out.append((a_string(ps["minLength"] - 1), "string_too_short", []))
    if "maxLength" in ps:
        out.append((a_string(ps["maxLength"] + 1), "string_too_long", []))
    # A date-time's pattern restates its format for clients; the format's cases test both.
    if "pattern" in ps and ps.get("format") != "date-time":
        out.append(("Not-Valid", "string_pattern_mismatch", []))
    if ps.get("format") == "date-time":
        out.append(("not-a-date", "datetime_parsing", []))
        out.append(("2025-07-01", "datetime_parsing", []))
    if "minimum" in ps:
        out.append((ps["minimum"] - 1, "greater_than_equal", []))
    if "maximum" in ps:
        out.append((ps["maximum"] + 1, "less_than_equal", []))
    if "exclusiveMinimum" in ps:
        out.append((ps["exclusiveMinimum"], "greater_than", []))
        out.append((ps["exclusiveMinimum"] - 1, "greater_than", []))
    items = ps.get("items")
    if t == "array":
        if "minItems" in ps and ps["minItems"] > 0:
            out.append(([sample_item(items, i) for i in range(ps["minItems"] - 1)],
                        "too_short", []))
        if "maxItems" in ps:
            out.append(([sample_item(items, i) for i in range(ps["maxItems"] + 1)],
                        "too_long", []))
        if items:
            it = resolve(items)
            good = sample_item(items, 0)
            for v, et in WRONG[base_type(it)][:1]:
                out.append(([good, v], et, [1]))
    if t == "object" and isinstance(ps.get("additionalProperties"), dict):
        ap = ps["additionalProperties"]
        for v, et in WRONG[base_type(ap)][:1]:
            out.append(({"k1": v}, et, ["k1"]))
        if base_type(ap) == "array" and "items" in ap:
            for v, et in WRONG[base_type(ap["items"])][:1]:
                out.append(({"k1": ["ok", v]}, et, ["k1", 1]))
    return out


def invalid_cases(schema, body, prefix):
    """Cases for the object schema `schema` located at `prefix` inside `body`."""
    cases = []
    obj = body
    for k in prefix:
        obj = obj[k]
    if not prefix:
        # the body itself must be a JSON object (gives every schema a wrong-type case, even
        # one whose only field is an enum)
        cases.append({"body": [], "loc": ["body"], "type": "model_attributes_type"})
    for field in schema.get("required", []):
        cases.append({"body": without(body, prefix + [field]),
                      "loc": ["body"] + prefix + [field], "type": "missing"})
    for field, ps in schema["properties"].items():
        path = prefix + [field]
        for v, et, suffix in value_cases(ps, path):
            cases.append({"body": with_value(body, path, v),
                          "loc": ["body"] + path + suffix, "type": et})
        items = ps.get("items", {})
        if "$ref" in items and field in obj and obj[field]:
            cases.extend(invalid_cases(resolve(items), body, path + [0]))
    return cases


def boundary_body(schema, body, high):
    b = copy.deepcopy(body)
    changed = False
    for field, ps in schema["properties"].items():
        ps = resolve(ps)
        items = ps.get("items")
        if high:
            if "maxLength" in ps:
                b[field] = a_string(ps["maxLength"]); changed = True
            if "maximum" in ps:
                b[field] = ps["maximum"]; changed = True
            if "maxItems" in ps:
                b[field] = [sample_item(items, i) for i in range(ps["maxItems"])]; changed = True
        else:
            if ps.get("minLength", 0) > 0:
                b[field] = a_string(ps["minLength"]); changed = True
            if "minimum" in ps:
                b[field] = ps["minimum"]; changed = True
            if "exclusiveMinimum" in ps:
                b[field] = ps["exclusiveMinimum"] + 1; changed = True
            if ps.get("minItems", 0) > 0:
                b[field] = [sample_item(items, i) for i in range(ps["minItems"])]; changed = True
            if ps.get("maxLength") is not None and "minLength" not in ps and \
                    base_type(ps) == "string" and not nullable(ps):
                b[field] = ""; changed = True
    return b if changed else None


def nulls_body(schema, body):
    nul = [f for f, ps in schema["properties"].items() if nullable(resolve(ps))]
    if not nul:
        return None
    b = copy.deepcopy(body)
    for f in nul:
        b[f] = None
    return b


def build():
    # HTTPValidationError and ValidationError describe responses, not request bodies.
    names = [fn[: -len(".schema.json")] for fn in SCHEMAS
             if fn not in ("HTTPValidationError.schema.json", "ValidationError.schema.json")]
    missing = set(names) ^ set(BODIES)
    assert not missing, f"bodies and schema files disagree: {sorted(missing)}"
    result = {}
    for name, bodies in BODIES.items():
        schema = SCHEMAS[f"{name}.schema.json"]
        valid = [bodies["min"], bodies["full"]] + bodies.get("extra", [])
        for extra in (nulls_body(schema, bodies["full"]),
                      boundary_body(schema, bodies["full"], high=False),
                      boundary_body(schema, bodies["full"], high=True),
                      dict(bodies["min"], unknown_extra_field=1)):
            if extra is not None:
                valid.append(extra)
        invalid = invalid_cases(schema, bodies["full"], [])
        seen, uniq = set(), []
        for c in invalid:
            key = json.dumps(c, sort_keys=True)
            if key not in seen:
                seen.add(key)
                uniq.append(c)
        result[name] = {"valid": valid, "invalid": uniq}
    return result


def dumps(v, indent=0):
    """Pretty JSON, 2-space indent; arrays of scalars stay on one line."""
    pad, pad2 = "  " * indent, "  " * (indent + 1)
    if isinstance(v, dict):
        if not v:
            return "{}"
        inner = [f"{pad2}{json.dumps(k, ensure_ascii=False)}: {dumps(x, indent + 1)}"
                 for k, x in v.items()]
        return "{\n" + ",\n".join(inner) + "\n" + pad + "}"
    if isinstance(v, list):
        if all(not isinstance(x, (dict, list)) for x in v):
            return "[" + ", ".join(json.dumps(x, ensure_ascii=False) for x in v) + "]"
        inner = [pad2 + dumps(x, indent + 1) for x in v]
        return "[\n" + ",\n".join(inner) + "\n" + pad + "]"
    return json.dumps(v, ensure_ascii=False)


# ---------------------------------------------------------------------------------------
# --check: validate every case with the python jsonschema package (Draft 2020-12).
# ---------------------------------------------------------------------------------------
KEYWORD_TYPE = {
    "minLength": "string_too_short", "maxLength": "string_too_long",
    "minimum": "greater_than_equal", "maximum": "less_than_equal",
    "exclusiveMinimum": "greater_than", "minItems": "too_short", "maxItems": "too_long",
    "enum": "enum", "pattern": "string_pattern_mismatch", "format": "datetime_parsing",
}


def check(cases):
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    registry = Registry().with_resources(
        (fn, Resource.from_contents(s)) for fn, s in SCHEMAS.items())
    problems = 0
    counts = [0, 0]
    for name, c in cases.items():
        schema = SCHEMAS[f"{name}.schema.json"]
        Draft202012Validator.check_schema(schema)
        v = Draft202012Validator(schema, registry=registry,
                                 format_checker=Draft202012Validator.FORMAT_CHECKER)
        for body in c["valid"]:
            counts[0] += 1
            errs = list(v.iter_errors(body))
            if errs:
                problems += 1
                print(f"{name}: valid body rejected: {errs[0].message[:200]}")
        for case in c["invalid"]:
            counts[1] += 1
            errs = list(v.iter_errors(case["body"]))
            if len(errs) != 1:
                problems += 1
                print(f"{name}: expected 1 error, got {len(errs)} for {case['loc']}"
                      f" {case['type']}: {[e.message[:80] for e in errs]}")
                continue
            e = errs[0]
            loc = ["body"] + list(e.absolute_path)
            if e.validator == "required":
                have = e.instance.keys()
                loc.append([r for r in e.validator_value if r not in have][0])
                et = "missing"
            elif e.validator == "type":
                want = e.validator_value
                want = want if isinstance(want, list) else [want]
                et = TYPE_ERROR[[t for t in want if t != "null"][0]]
                if loc == ["body"] and et == "dict_type":
                    et = "model_attributes_type"  # pydantic's type for a non-object body
            else:
                et = KEYWORD_TYPE[e.validator]
            if loc != case["loc"] or et != case["type"]:
                problems += 1
                print(f"{name}: expected {case['loc']} {case['type']}, got {loc} {et}")
    print(f"checked {len(cases)} schemas, {counts[0]} valid and {counts[1]} invalid bodies: "
          f"{problems} problem(s)")
    return problems == 0


def main():
    cases = build()
    with open(OUT, "w") as f:
        f.write(dumps(cases) + "\n")
    print(f"wrote {OUT}")
    if "--check" in sys.argv[1:]:
        sys.exit(0 if check(cases) else 1)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Validates workflows/*/cases.json: format, split rule, normalised value shapes, and that
date, money, percentage, code and address values are visibly stated in the document text
(read from the .txt/.md file, or from src/<id>.<kind>.txt for generated DOCX/PDF files).
Standard library only. Exit status 1 on any problem."""
import calendar, datetime, glob, json, os, re, sys

HERE = os.path.dirname(os.path.abspath(__file__))
TYPES = {"date", "money", "percentage", "duration", "party", "address", "code", "enumeration", "text"}


def doc_text(wfdir, fname):
    p = os.path.join(wfdir, fname)
    if fname.endswith((".txt", ".md")):
        return open(p, encoding="utf-8").read()
    doc_id = os.path.splitext(fname)[0]
    srcs = glob.glob(os.path.join(wfdir, "src", doc_id + ".*.txt"))
    if len(srcs) != 1:
        raise SystemExit(f"{fname}: expected one source in src/, found {srcs}")
    if not os.path.exists(p):
        raise SystemExit(f"{fname}: missing; run make_docs.py")
    return open(srcs[0], encoding="utf-8").read()


def norm(s):
    return re.sub(r"\s+", " ", s).lower()


def date_forms(iso):
    d = datetime.date.fromisoformat(iso)
    m, mon = calendar.month_name[d.month], calendar.month_abbr[d.month]
    return {iso, f"{d.month:02d}/{d.day:02d}/{d.year}", f"{d.month}/{d.day}/{d.year}", f"{d.day:02d}/{d.month:02d}/{d.year}",
            f"{m} {d.day}, {d.year}", f"{d.day} {m} {d.year}", f"{d.day} {mon} {d.year}", f"{mon} {d.day}, {d.year}",
            f"{d.day}st day of {m}, {d.year}", f"{d.day} {m.upper()} {d.year}"}


def money_forms(a):
    s = f"{a:,.2f}"
    forms = {s}
    if s.endswith(".00"):
        forms |= {s[:-3], f"{int(a)}"}
    return forms


def main():
    bad = 0
    total = {"tune": 0, "report": 0}
    for cf in sorted(glob.glob(os.path.join(HERE, "workflows", "*", "cases.json"))):
        wfdir = os.path.dirname(cf)
        wf = os.path.basename(wfdir)
        cases = json.load(open(cf, encoding="utf-8"))
        per = {"tune": 0, "report": 0}
        nfields = 0
        for i, c in enumerate(cases):
            def fail(msg):
                nonlocal bad
                bad += 1
                print(f"{wf}/{c.get('id')}: {msg}")
            if set(c) != {"id", "file", "split", "fields"}:
                fail(f"keys {sorted(c)}")
            if c["split"] != ("tune" if i % 2 == 0 else "report"):
                fail("split does not follow the alternation rule")
            per[c["split"]] += 1
            text = norm(doc_text(wfdir, c["file"]))
            for name, f in c["fields"].items():
                nfields += 1
                t, v = f.get("type"), f.get("value", "MISSING")
                if t not in TYPES:
                    fail(f"{name}: bad type {t}")
                if v == "MISSING":
                    fail(f"{name}: no value")
                if v is None:
                    continue
                if f.get("derived"):          # normalised/composed value: not verbatim in the text
                    continue
                if not isinstance(f.get("page"), int):
                    fail(f"{name}: page missing")
                if t == "date":
                    if not any(norm(x) in text for x in date_forms(v)):
                        fail(f"{name}: date {v} not found in text")
                elif t == "money":
                    if set(v) != {"amount", "currency", "period"} or v["period"] not in ("month", "year", "once", None):
                        fail(f"{name}: bad money {v}")
                    elif not any(x in text for x in money_forms(v["amount"])):
                        fail(f"{name}: amount {v['amount']} not found in text")
                elif t == "percentage":
                    if not isinstance(v, (int, float)):
                        fail(f"{name}: percentage must be a number")
                elif t == "duration":
                    if set(v) != {"value", "unit"} or v["unit"] not in ("months", "years", "days"):
                        fail(f"{name}: bad duration {v}")
                elif t in ("code", "address"):
                    for x in (v if isinstance(v, list) else [v]):
                        if norm(x) not in text:
                            fail(f"{name}: {x!r} not found in text")
                elif t == "text" and isinstance(v, str):
                    for kw in f.get("keywords", []):
                        if not any(k in text for k in kw.split("|")):
                            fail(f"{name}: keyword {kw!r} not in text")
        print(f"{wf:24s} docs {len(cases)} (tune {per['tune']}, report {per['report']}), fields {nfields}")
        for k in per:
            total[k] += per[k]
    print("total", total, "OK" if not bad else f"FAIL ({bad})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

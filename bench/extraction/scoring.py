"""Scoring of one run's review packet against a case of tests/data/eval/workflows, with the
normalisation of tests/data/eval/README.md: dates ISO, money {amount, period}, percentages and
durations as numbers, parties and addresses compared case-insensitively without punctuation
(parties also without token order), codes as written, enumerations lower case, text by keywords,
list fields by recall. A field with gold `null` is right when the packet has no value for it.

score_field(packet, path, gold, doc_id) -> (credit 0..1, page_ok bool, got) where credit is the
share of the field that is right (1/0 for a scalar, recall for a list) and page_ok whether every
right part cites the case's document on the gold page.
"""

import re

MONTHS = {m: i + 1 for i, m in enumerate(
    "january february march april may june july august september october november december".split())}
MONTHS.update({m[:3]: i for m, i in list(MONTHS.items())})
MONTHS["sept"] = 9

# Named amounts of the README → the box keys the finance plugin writes.
BOXES = {
    "W-2": {"wages": "1", "federal_income_tax_withheld": "2", "social_security_wages": "3",
            "social_security_tax_withheld": "4", "medicare_wages": "5",
            "medicare_tax_withheld": "6", "state_income_tax": "17"},
    "1099-INT": {"interest_income": "1", "early_withdrawal_penalty": "2",
                 "federal_income_tax_withheld": "4", "foreign_tax_paid": "6"},
    "1099-DIV": {"total_ordinary_dividends": "1a", "qualified_dividends": "1b",
                 "total_capital_gain_distributions": "2a", "federal_income_tax_withheld": "4",
                 "foreign_tax_paid": "7"},
    "1099-NEC": {"nonemployee_compensation": "1", "direct_sales": "2",
                 "federal_income_tax_withheld": "4"},
    "1099-R": {"gross_distribution": "1", "taxable_amount": "2a", "capital_gain": "3",
               "federal_income_tax_withheld": "4", "employee_contributions": "5",
               "distribution_code": "7"},
    "1098": {"mortgage_interest_received": "1", "outstanding_mortgage_principal": "2",
             "mortgage_insurance_premiums": "5", "points_paid": "6", "real_estate_taxes": "10"},
    "1099-G": {"unemployment_compensation": "1", "state_local_tax_refund": "2",
               "federal_income_tax_withheld": "4"},
    "1099-B": {"proceeds": "1d"},
}

WORDS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty".split())}
WORDS.update({"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "thirty-six": 36,
              "twenty-four": 24, "eighteen": 18})


def is_field(x):
    return isinstance(x, dict) and "value" in x and ("source" in x or "confidence" in x)


def value_of(x):
    return x["value"] if is_field(x) else x


def empty(v):
    return v is None or v == "" or v == [] or v == {}


def text_of(v):
    if isinstance(v, dict):
        return " ".join(text_of(x) for x in v.values())
    if isinstance(v, list):
        return " ".join(text_of(x) for x in v)
    return "" if v is None else str(v)


def squash(s):
    return re.sub(r"[^a-z0-9]+", " ", str(s).lower()).strip()


def to_number(s):
    if isinstance(s, (int, float)) and not isinstance(s, bool):
        return float(s)
    m = re.search(r"-?\d[\d,]*(?:\.\d+)?", str(s))
    return float(m.group(0).replace(",", "")) if m else None


def norm_date(v):
    s = str(v).strip()
    m = re.search(r"(\d{4})-(\d{1,2})-(\d{1,2})", s)
    if m:
        return f"{int(m[1]):04d}-{int(m[2]):02d}-{int(m[3]):02d}"
    m = re.search(r"(\d{1,2})/(\d{1,2})/(\d{4})", s)
    if m:
        return f"{int(m[3]):04d}-{int(m[1]):02d}-{int(m[2]):02d}"
    m = re.search(r"([A-Za-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})", s)
    if m and m[1].lower() in MONTHS:
        return f"{int(m[3]):04d}-{MONTHS[m[1].lower()]:02d}-{int(m[2]):02d}"
    m = re.search(r"(\d{1,2})(?:st|nd|rd|th)?\s+(?:day of\s+)?([A-Za-z]+),?\s+(\d{4})", s)
    if m and m[2].lower() in MONTHS:
        return f"{int(m[3]):04d}-{MONTHS[m[2].lower()]:02d}-{int(m[1]):02d}"
    return s


def norm_money(v):
    if isinstance(v, dict) and "amount" in v:
        return to_number(v["amount"]), v.get("period")
    s = str(v).lower()
    period = None
    if re.search(r"per\s+month|/\s*mo|monthly|a month|each month", s):
        period = "month"
    elif re.search(r"per\s+(year|annum)|/\s*y|annual|a year|each year|yearly", s):
        period = "year"
    return to_number(v), period


def money_equal(got, gold):
    amount, period = norm_money(got)
    if amount is None or abs(amount - float(gold["amount"])) > 0.005:
        return False
    want = gold.get("period")
    if want in (None, "once"):
        return period in (None, "once")
    return period == want


def norm_duration(v):
    if isinstance(v, dict) and "value" in v:
        return float(v["value"]), str(v.get("unit", "")).rstrip("s") + "s"
    if isinstance(v, (int, float)):
        return float(v), "years"
    s = str(v).lower()
    unit = re.search(r"(month|year|day|week)", s)
    n = to_number(s)
    if n is None:
        w = re.search(r"\b(" + "|".join(sorted(WORDS, key=len, reverse=True)) + r")\b", s)
        n = float(WORDS[w[1]]) if w else None
    return n, (unit[1] + "s") if unit else None


def party_tokens(s):
    return sorted(squash(s).split())


def parties_of(v):
    """{landlord, tenant} from a dict or "X (Landlord); Y (Tenant)"."""
    if isinstance(v, dict):
        return {k.lower(): value_of(x) for k, x in v.items()}
    out = {}
    for part in str(v).split(";"):
        m = re.match(r"\s*(.+?)\s*\((landlord|tenant)\)\s*$", part, re.I)
        if m:
            out[m[2].lower()] = m[1]
    return out


def keywords_hit(text, keywords):
    t = str(text).lower()
    return all(any(alt.strip().lower() in t for alt in kw.split("|")) for kw in keywords)


def scalar_equal(got, gold_value, ftype, entry):
    if ftype == "date":
        return norm_date(got) == gold_value
    if ftype == "money":
        return money_equal(got, gold_value)
    if ftype == "percentage":
        n = to_number(got)
        if n is None:
            low = str(got).lower()
            n = 200.0 if "double" in low else None
        return n is not None and abs(n - float(gold_value)) < 1e-6
    if ftype == "duration":
        n, unit = norm_duration(got)
        return n == float(gold_value["value"]) and unit == gold_value["unit"]
    if ftype == "party":
        if isinstance(gold_value, dict):
            p = parties_of(got)
            return all(party_tokens(p.get(k, "")) == party_tokens(x) for k, x in gold_value.items())
        return party_tokens(got) == party_tokens(gold_value)
    if ftype == "address":
        return squash(got) == squash(gold_value)
    if ftype == "code":
        return squash(got).replace(" ", "") == squash(gold_value).replace(" ", "")
    if ftype == "enumeration":
        # README: "routine", "non-urgent" → standard; "expedited" → urgent.
        same = {"expedited": "urgent", "routine": "standard", "non-urgent": "standard"}
        g = str(got).strip().lower()
        return same.get(g, g) == str(gold_value).strip().lower()
    # text
    if entry.get("keywords"):
        return keywords_hit(text_of(got), entry["keywords"])
    return squash(gold_value) in squash(text_of(got))


def item_key(item):
    """An item's name: `name`, `substance`, `text` or `description` (a problem's); a record
    without one is read by its values, never by its keys' names."""
    if isinstance(item, dict):
        for k in ("name", "substance", "text", "description"):
            if k in item:
                return item[k]
        return text_of(item)
    return item


def item_found(gold_item, got_items):
    if isinstance(gold_item, dict) and gold_item.get("keywords"):
        return next((g for g in got_items if keywords_hit(text_of(value_of(g)), gold_item["keywords"])),
                    None)
    want = squash(item_key(gold_item))
    for g in got_items:
        v = value_of(g)
        have = squash(item_key(v) if isinstance(v, dict) else v)
        if have and (have == want or want in have or (len(have) > 3 and have in want)):
            return g
    return None


def page_ok(got, doc_id, page):
    src = got.get("source") if isinstance(got, dict) else None
    if not isinstance(src, dict):
        return False
    return src.get("document_id") == doc_id and src.get("page") == page


def locate(packet, path):
    """The packet's node at a README path (`forms[W-2].amounts.wages`); None when absent."""
    node = packet
    form_type = None
    for part in path.split("."):
        m = re.match(r"(\w+)\[(.+)\]$", part)
        if m:
            form_type = m[2]
            items = node.get(m[1]) if isinstance(node, dict) else None
            node = next((f for f in items or [] if str(value_of(f.get("form_type"))).upper() ==
                         form_type.upper()), None)
        elif isinstance(node, dict):
            if part in node:
                node = node[part]
            elif form_type and part in BOXES.get(form_type, {}):
                node = node.get("box_" + BOXES[form_type][part])
            else:
                node = None
        else:
            node = None
        if node is None:
            return None
    return node


def score_field(packet, path, entry, doc_id):
    gold, ftype = entry["value"], entry.get("type", "text")
    got = locate(packet, path)
    if gold is None:
        ok = got is None or empty(value_of(got)) or (
            isinstance(got, list) and all(empty(value_of(g)) for g in got))
        return (1.0 if ok else 0.0), True, got
    if isinstance(gold, list):
        items = got if isinstance(got, list) else (value_of(got) if got is not None else [])
        if not isinstance(items, list):
            items = [items]
        if not gold:
            ok = all(empty(value_of(g)) for g in items)
            return (1.0 if ok else 0.0), True, got
        found = [item_found(g, items) if ftype != "code" else next(
            (x for x in items if squash(value_of(x)) == squash(g)), None) for g in gold]
        credit = sum(1 for f in found if f is not None) / len(gold)
        # Items without a source of their own (requirement strings) cite through the field, or
        # not at all: then the page cannot be checked and is not held against them.
        cited = all(page_ok(f if is_field(f) else got, doc_id, entry.get("page"))
                    if is_field(f) or is_field(got) else True
                    for f in found if f is not None)
        return credit, cited and credit > 0, got
    if got is None or empty(value_of(got)):
        return 0.0, False, got
    alternatives = [gold] + entry.get("alternatives", [])
    ok = any(scalar_equal(value_of(got), a, ftype, entry) for a in alternatives)
    return (1.0 if ok else 0.0), ok and page_ok(got, doc_id, entry.get("page")), got


def list_precision(packet, path, entry):
    """(items that match a gold item, items) of a list field whose gold list is not empty, or
    None for other fields: a figure for what the recall score lets through (a problem list that
    runs on into the next section). The gold lists are not exhaustive (README), so it is a lower
    bound, read as a trend between builds."""
    gold, ftype = entry["value"], entry.get("type", "text")
    if not isinstance(gold, list) or not gold or ftype == "code":
        return None
    got = locate(packet, path)
    items = got if isinstance(got, list) else (value_of(got) if got is not None else [])
    if not isinstance(items, list):
        items = [items]
    items = [g for g in items if not empty(value_of(g))]
    return sum(1 for g in items if any(item_found(x, [g]) for x in gold)), len(items)

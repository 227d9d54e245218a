#!/usr/bin/env python3
"""Fits the map of another encoder's cosines onto all-MiniLM-L6-v2's scale
(knowledge::comparableCosine, docs/decisions/0078).

The refusal (knowledge::answerProbability) and the extractive answerer's sentence support were
fitted on MiniLM's cosines. multilingual-e5-small's cosines crowd into a narrow high band, so read
as MiniLM's they say "well supported" of almost anything. The map is affine and matches the two
models' mean and spread of the best sentence's cosine (feature 0 of knowledge::refusalFeatures)
over the same SQuAD questions: those of split "fit" (the other paragraphs of the even-numbered
articles), never the tune or report halves.

Input: two features files of `qa_bench <model dir> <squad dir> --features FILE --fit-data`, the
reference model's (MiniLM) first. Prints the constants for core/knowledge/refusal.cpp and, as a
check, the mapped cosine lift's mean against the reference's (feature 20, which the same map
scales by its slope).

Usage: bench/qa/fit_cosine_scale.py REFERENCE_FEATURES OTHER_FEATURES
"""
import json
import statistics
import sys

COSINE, LIFT = 0, 20


def load(path):
    rows = {}
    for line in open(path):
        r = json.loads(line)
        if r["split"] == "fit":
            rows[r["id"]] = r["features"]
    return rows


reference, other = load(sys.argv[1]), load(sys.argv[2])
ids = sorted(set(reference) & set(other))
ref = [reference[i][COSINE] for i in ids]
oth = [other[i][COSINE] for i in ids]
slope = statistics.pstdev(ref) / statistics.pstdev(oth)
offset = statistics.mean(ref) - slope * statistics.mean(oth)
print(f"{len(ids)} questions of split fit")
print(f"reference cosine mean {statistics.mean(ref):.4f} sd {statistics.pstdev(ref):.4f}; "
      f"other mean {statistics.mean(oth):.4f} sd {statistics.pstdev(oth):.4f}")
print(f"correlation of the two models' best cosines: {statistics.correlation(ref, oth):.3f}")
print(f"lift mean: reference {statistics.mean(reference[i][LIFT] for i in ids):.4f}, other mapped "
      f"{slope * statistics.mean(other[i][LIFT] for i in ids):.4f}")
print(f"constants: slope {slope:.4f}, offset {offset:.4f}")

#!/usr/bin/env python3
"""Fits the re-ranker's linear weights on the SciFact train queries and reports them on test.

Input: the candidates file of `bench/retrieval/run.sh --features FILE` (every fused candidate of
every train and test query with its cosine, BM25 and question-word coverage). Mirrors
knowledge::rerank: score = w_sim·cosine + w_bm25·bm25/max(bm25 of the re-ranked set)
+ w_cov·coverage over the first `depth` fused candidates; the rest keep the fused order;
documents are ranked by their best chunk. Grid search on train nDCG@10; prints the best rows
with their test figures. The figures that count are those retrieval_bench prints with the
chosen weights (the real code path).

Usage: bench/retrieval/fit_rerank.py FEATURES_FILE
"""
import collections
import itertools
import json
import math
import sys

import numpy as np


def load(path):
    queries = collections.OrderedDict()
    for line in open(path):
        c = json.loads(line)
        c["doc"] = str(int(c["doc"][-12:])) if "-" in c["doc"] else c["doc"]
        queries.setdefault((c["split"], c["q"]), []).append(c)
    return queries


def ndcg10(docs, rel, n_rel):
    dcg = sum(1 / math.log2(i + 2) for i, d in enumerate(docs[:10]) if d in rel)
    ideal = sum(1 / math.log2(i + 2) for i in range(min(n_rel, 10)))
    return dcg / ideal if ideal else 0


def prepare(queries):
    out = []
    for (split, _), cands in queries.items():
        rel = {c["doc"] for c in cands if c["rel"]}
        out.append({
            "split": split,
            "docs": [c["doc"] for c in cands],
            "sim": np.array([c["sim"] for c in cands]),
            "bm25": np.array([c["bm25"] for c in cands]),
            "cov": np.array([c["cov"] for c in cands]),
            "rel": rel,
        })
    return out


def evaluate(prepared, qrels_count, weights, depth, split):
    w_sim, w_bm25, w_cov = weights
    total, n = 0.0, 0
    for q in prepared:
        if q["split"] != split:
            continue
        k = min(depth, len(q["docs"]))
        bm = q["bm25"][:k]
        score = w_sim * q["sim"][:k] + w_bm25 * bm / max(bm.max(initial=0), 1e-9) + w_cov * q["cov"][:k]
        order = list(np.argsort(-score, kind="stable")) + list(range(k, len(q["docs"])))
        seen, docs = set(), []
        for i in order:
            d = q["docs"][i]
            if d not in seen:
                seen.add(d)
                docs.append(d)
        total += ndcg10(docs, q["rel"], qrels_count[(split, id(q))])
        n += 1
    return total / max(n, 1)


def main():
    queries = load(sys.argv[1])
    prepared = prepare(queries)
    # Relevant documents per query come from the qrels, not from what was retrieved.
    qrels = {}
    for split in ("test", "train"):
        for line in list(open(f"../shared/datasets/beir-scifact/qrels/{split}.tsv"))[1:]:
            q, d, s = line.split("\t")
            qrels.setdefault((split, q), set()).add(d)
    counts = {}
    for ((split, qid), _), q in zip(queries.items(), prepared):
        q["rel"] = qrels[(split, qid)]
        counts[(split, id(q))] = len(q["rel"])
    rows = []
    grid = [i / 20 for i in range(0, 21)]
    for depth in (20, 50, 100):
        for w_sim, w_bm25 in itertools.product(grid, grid):
            w_cov = 1 - w_sim - w_bm25
            if w_cov < -1e-9:
                continue
            w = (w_sim, w_bm25, max(w_cov, 0))
            rows.append((evaluate(prepared, counts, w, depth, "train"), depth, w))
    rows.sort(reverse=True)
    print("train nDCG@10  test nDCG@10  depth  w_sim w_bm25 w_cov")
    for tr, depth, w in rows[:15]:
        te = evaluate(prepared, counts, w, depth, "test")
        print(f"  {tr:.4f}       {te:.4f}      {depth:5d}  {w[0]:.2f}  {w[1]:.2f}  {w[2]:.2f}")
    for depth in (20, 50, 100):
        cur = (0.55, 0.25, 0.20)
        print(f"current weights, depth {depth}: train {evaluate(prepared, counts, cur, depth, 'train'):.4f}"
              f" test {evaluate(prepared, counts, cur, depth, 'test'):.4f}")


if __name__ == "__main__":
    main()

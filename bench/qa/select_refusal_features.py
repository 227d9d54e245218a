#!/usr/bin/env python3
"""Forward selection of candidate refusal features on the even-numbered SQuAD v2 articles only
(docs/decisions/0057, amendment). The report half (split "report") is dropped on loading.

Input: a features file of `bench/qa/run.sh --features FILE --fit-data` written by a build whose
qa_bench adds a "candidates" object to each row (commit 44dd69a; later commits keep only the
chosen features, inside "features", and this script then has nothing to choose from). Each
candidate is scored by 5-fold cross-validation over all even questions, repeated over 12
seeds: the mean best smaller margin to the goals (answered >= 80 %, refused >= 50 %) over
thresholds of the out-of-fold probabilities, and the mean AUC (answered-with-gold vs
unanswerable). A candidate joins when it raises both; the greedy search stops when none does.

Usage: bench/qa/select_refusal_features.py FEATURES_FILE
"""
import json
import sys

import numpy as np

from fit_refusal import fit

CAPS = {"pairs_apart": 3, "displaced_names": 2, "window_missing": 4}


def main():
    rows = [json.loads(line) for line in open(sys.argv[1])]
    rows = [r for r in rows if r["split"] != "report"]  # never look at the report half
    base = np.array([r["features"] for r in rows], dtype=float)
    answerable = np.array([r["answerable"] for r in rows])
    gold = np.array([r["gold"] for r in rows])
    y = (answerable & gold).astype(float)
    use = ~answerable | gold
    pool = {"asks": np.array([[float(a) for a in r["candidates"]["asks"]] for r in rows])}
    for name, value in rows[0]["candidates"].items():
        if name in ("asks", "sentences"):
            continue
        pool[name] = np.array(
            [[min(r["candidates"][name], CAPS.get(name, np.inf))] for r in rows], dtype=float)
    pool["log1p_sentences"] = np.log1p(
        np.array([[r["candidates"]["sentences"]] for r in rows], dtype=float))

    def score(x):
        objectives, aucs = [], []
        for seed in range(12):
            fold = np.random.default_rng(seed).integers(0, 5, len(rows))
            prob = np.zeros(len(rows))
            for k in range(5):
                train = (fold != k) & use
                bias, w = fit(x[train], y[train], 1.0)
                prob[fold == k] = 1 / (1 + np.exp(-(bias + x[fold == k] @ w)))
            best = -1e9
            for t in np.arange(0.01, 1.0, 0.01):
                a = ((prob >= t) & answerable & gold).sum() / answerable.sum()
                r = ((prob < t) & ~answerable).sum() / (~answerable).sum()
                best = max(best, min(a - 0.80, r - 0.50))
            objectives.append(best)
            pos, neg = prob[answerable & gold], prob[~answerable]
            aucs.append((pos[:, None] > neg[None, :]).mean()
                        + 0.5 * (pos[:, None] == neg[None, :]).mean())
        return float(np.mean(objectives)), float(np.mean(aucs))

    chosen = []
    current = score(base)
    print(f"committed features: CV margin {100 * current[0]:+.2f} points, AUC {current[1]:.4f}")
    while True:
        best = None
        for name, column in pool.items():
            if name in chosen:
                continue
            s = score(np.hstack([base] + [pool[c] for c in chosen] + [column]))
            print(f"  + {name:22s} CV margin {100 * s[0]:+.2f}  AUC {s[1]:.4f}")
            if s[0] > current[0] and s[1] > current[1] and (best is None or s[0] > best[1][0]):
                best = (name, s)
        if best is None:
            break
        chosen.append(best[0])
        current = best[1]
        print(f"ADD {best[0]}: CV margin {100 * current[0]:+.2f}, AUC {current[1]:.4f}")
    print("selected:", ", ".join(chosen))


if __name__ == "__main__":
    main()

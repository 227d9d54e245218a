#!/usr/bin/env python3
"""Fits the extractive answerer's refusal (knowledge::answerProbability) on the even-numbered
SQuAD v2 articles and shows what it would give on the odd ones.

Input: the features file of `bench/qa/run.sh --features FILE --fit-data` (every question's
knowledge::refusalFeatures, its split — "fit" and "tune" are even-numbered articles, "report"
odd — whether it is answerable, and whether the answer cites the gold text). A logistic
regression (L2, Newton's method on standardised features) predicts "answerable and answered
with the gold text" on the even articles only; answerable questions whose cited sentences miss
the gold answer are left out of the fit (refusing them neither helps nor hurts the figures).
The threshold is the one with the largest smaller margin to the goals (answered ≥ 80 %,
refused ≥ 50 %) on the even articles. Prints the weights as C++ for core/knowledge/refusal.cpp
and the curve; the figures that count are those qa_bench prints with the committed constants.

With `--only NAME,NAME,...` the model is fitted on those features alone (the others weigh 0):
the refusal of questions that do not read as English uses only features that do not depend on
English words (docs/decisions/0078). Its bias is also printed moved so that the product's one
threshold (0.35) refuses where the chosen threshold does.

With `--also FILE K` the rows of FILE (`bench/qa_corpus/run.sh tune --features FILE`: the blind
QA set's tune half over real documents) join the fit, each weighing K against a SQuAD question
(decision 0081). Their figures are printed at the product's threshold as fitted and as left out
one document at a time (each document's questions scored by the model fitted without them).

Usage: bench/qa/fit_refusal.py FEATURES_FILE [L2] [--only NAMES] [--also FILE K]
"""
import json
import sys

import numpy as np

NAMES = ["cosine", "overlap", "window_coverage", "missing", "missing_names", "altered",
         "negation_unmatched", "type_mismatch", "missing_long", "log1p_question_words",
         "asks_what", "asks_who", "asks_when", "asks_which", "asks_how", "asks_why", "asks_where",
         "best_coverage", "pairs_apart", "displaced_names", "cosine_lift", "log1p_sentences"]


def load(path):
    rows = [json.loads(line) for line in open(path)]
    x = np.array([r["features"] for r in rows], dtype=float)
    split = np.array([r["split"] for r in rows])
    answerable = np.array([r["answerable"] for r in rows])
    gold = np.array([r["gold"] for r in rows])
    return x, split, answerable, gold


def fit(x, y, l2, weight=None):
    weight = np.ones(len(x)) if weight is None else weight
    mean, std = x.mean(axis=0), x.std(axis=0)
    std[std == 0] = 1
    z = np.hstack([np.ones((len(x), 1)), (x - mean) / std])
    w = np.zeros(z.shape[1])
    reg = np.full(z.shape[1], l2)
    reg[0] = 0
    for _ in range(50):
        p = 1 / (1 + np.exp(-z @ w))
        grad = z.T @ (weight * (p - y)) + reg * w
        hess = (z * (weight * p * (1 - p))[:, None]).T @ z + np.diag(reg)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    weights = w[1:] / std
    bias = w[0] - (w[1:] * mean / std).sum()
    return bias, weights


def rates(prob, answerable, gold, threshold):
    answers = prob >= threshold
    answered = (answers & answerable & gold).sum() / max(answerable.sum(), 1)
    refused = (~answers & ~answerable).sum() / max((~answerable).sum(), 1)
    return answered, refused


def main():
    args = sys.argv[1:]
    only = None
    if "--only" in args:
        at = args.index("--only")
        only = [NAMES.index(n) for n in args[at + 1].split(",")]
        del args[at:at + 2]
    also, also_weight = None, 0.0
    if "--also" in args:
        at = args.index("--also")
        also, also_weight = args[at + 1], float(args[at + 2])
        del args[at:at + 3]
    path = args[0]
    l2 = float(args[1]) if len(args) > 1 else 1.0
    x, split, answerable, gold = load(path)
    weight = np.ones(len(x))
    documents = np.array([""] * len(x), dtype=object)
    if also:
        rows = [json.loads(line) for line in open(also)]
        x = np.vstack([x, [r["features"] for r in rows]])
        split = np.concatenate([split, [r["split"] for r in rows]])
        answerable = np.concatenate([answerable, [r["answerable"] for r in rows]])
        gold = np.concatenate([gold, [r["gold"] for r in rows]])
        weight = np.concatenate([weight, np.full(len(rows), also_weight)])
        documents = np.concatenate([documents, [r["document"] for r in rows]])
    if only is not None:  # the other features weigh nothing
        x[:, [i for i in range(len(NAMES)) if i not in only]] = 0
    even = split != "report"
    use = even & (~answerable | gold)
    y = (answerable & gold).astype(float)
    bias, weights = fit(x[use], y[use], l2, weight[use])
    prob = 1 / (1 + np.exp(-(bias + x @ weights)))
    if also:
        extra = documents != ""
        left_out = np.zeros(len(x))
        for document in sorted(set(documents[extra])):
            held = documents == document
            b, w = fit(x[use & ~held], y[use & ~held], l2, weight[use & ~held])
            left_out[held] = 1 / (1 + np.exp(-(b + x[held] @ w)))
        for name, p in (("as fitted", prob), ("one document left out", left_out)):
            a, r = rates(p[extra], answerable[extra], gold[extra], 0.35)
            print(f"{also} at 0.35, {name}: answered-correct {100 * a:.1f}%, "
                  f"refused {100 * r:.1f}%")

    print(f"fit on {use.sum()} even-article questions ({(use & (y == 1)).sum()} answered with "
          f"the gold text, {(use & ~answerable).sum()} unanswerable), L2 {l2}")
    for name, w in zip(NAMES, weights):
        print(f"  {name:20s} {w:+.4f}")
    print(f"  {'bias':20s} {bias:+.4f}")

    best, best_t = -1e9, 0.5
    for t in np.arange(0.05, 0.96, 0.01):
        a, r = rates(prob[even], answerable[even], gold[even], t)
        if min(a - 0.80, r - 0.50) > best + 1e-12:
            best, best_t = min(a - 0.80, r - 0.50), t
    print("threshold | even (fit+tune) | tune (subset) | report (odd subset)")
    for t in list(np.arange(0.20, 0.81, 0.04)) + [best_t]:
        cells = []
        for mask in (even & (documents == ""), split == "tune", split == "report"):
            a, r = rates(prob[mask], answerable[mask], gold[mask], t)
            cells.append(f"{100 * a:5.1f}% {100 * r:5.1f}%")
        mark = "  <- chosen on even" if t == best_t else ""
        print(f"  {t:.2f}    | " + " | ".join(cells) + mark)
    print("\n// C++ (core/knowledge/refusal.cpp)")
    print(f"constexpr double kBias = {bias:.4f};")
    print("constexpr std::array<double, kRefusalFeatures> kWeights = {"
          + ", ".join(f"{w:.4f}" for w in weights) + "};")
    print(f"// refuse_below {best_t:.2f}")
    logit = lambda p: np.log(p / (1 - p))
    print(f"// bias for refuse_below 0.35: {bias - logit(best_t) + logit(0.35):.4f}")


if __name__ == "__main__":
    main()

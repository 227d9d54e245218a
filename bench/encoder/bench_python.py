#!/usr/bin/env python3
"""The reference points for bench/encoder/run.sh: sentence-transformers (PyTorch) and ONNX
Runtime on the same local weights, thread count and chunk shape as encoder_bench. Prints
"<impl> <model> <batch> <chunks> <seconds> <chunks/s> <tokens/s>" lines. The ONNX graph is
exported once from the local model with torch.onnx into var/cache/onnx/<model>/model.onnx.

Usage: bench_python.py <model-dir> [--threads N] [--tokens N] [--chunks N] [--batches 1,8,32]
"""

import argparse
import os
import random
import sys
import time
from pathlib import Path

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"

WORDS = ("the contract payment report data policy review page table figure cost tenant "
         "notice court health year month section by and").split()


def chunks(tokenizer, tokens, count):
    rng = random.Random(7)
    out = []
    for _ in range(count):
        text = " ".join(rng.choice(WORDS) for _ in range(tokens - 2))
        n = len(tokenizer(text)["input_ids"])
        if n != tokens:
            print(f"warning: chunk is {n} tokens, not {tokens}", file=sys.stderr)
        out.append(text)
    return out


def export_onnx(model_dir, out_path):
    import torch
    from transformers import AutoModel, AutoTokenizer

    if out_path.exists():
        return
    out_path.parent.mkdir(parents=True, exist_ok=True)
    bert = AutoModel.from_pretrained(str(model_dir), local_files_only=True,
                                     attn_implementation="eager").eval()

    class Encoder(torch.nn.Module):  # keyword arguments: BertModel's positional order varies
        def __init__(self):
            super().__init__()
            self.bert = bert

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.bert(input_ids=input_ids, attention_mask=attention_mask,
                             token_type_ids=token_type_ids).last_hidden_state

    model = Encoder().eval()
    tok = AutoTokenizer.from_pretrained(str(model_dir), local_files_only=True)
    sample = tok(["an example", "another example text"], padding=True, return_tensors="pt")
    names = ["input_ids", "attention_mask", "token_type_ids"]
    axes = {n: {0: "batch", 1: "seq"} for n in names}
    axes["last_hidden_state"] = {0: "batch", 1: "seq"}
    with torch.no_grad():
        torch.onnx.export(model, tuple(sample[n] for n in names), str(out_path),
                          input_names=names, output_names=["last_hidden_state"],
                          dynamic_axes=axes, opset_version=17, dynamo=False)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("model_dir")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--tokens", type=int, default=256)
    ap.add_argument("--chunks", type=int, default=64)
    ap.add_argument("--batches", default="1,8,32")
    ap.add_argument("--cache", default=os.environ.get("DOCINTEL_DATA_DIR", "var") + "/cache/onnx")
    args = ap.parse_args()
    batches = [int(b) for b in args.batches.split(",")]
    model_dir = Path(args.model_dir)
    name = model_dir.name

    import numpy as np
    import onnxruntime as ort
    import torch
    from sentence_transformers import SentenceTransformer

    torch.set_num_threads(args.threads)
    st = SentenceTransformer(str(model_dir), device="cpu", local_files_only=True)
    st.max_seq_length = max(st.max_seq_length, args.tokens)
    texts = chunks(st.tokenizer, args.tokens, args.chunks)
    normalize = any("Normalize" in type(m).__name__ for m in st)
    cls = st[1].get_config_dict().get("pooling_mode_cls_token", False)

    st.encode(texts[:1])
    for b in batches:
        start = time.perf_counter()
        st.encode(texts, batch_size=b)
        s = time.perf_counter() - start
        print(f"sentence-transformers {name} {b} {len(texts)} {s:.3f} "
              f"{len(texts) / s:.1f} {len(texts) * args.tokens / s:.0f}", flush=True)

    onnx_path = Path(args.cache) / name / "model.onnx"
    export_onnx(model_dir, onnx_path)
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = args.threads
    opts.inter_op_num_threads = 1
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    session = ort.InferenceSession(str(onnx_path), opts, providers=["CPUExecutionProvider"])
    tok = st.tokenizer

    def encode(batch):
        enc = tok(batch, padding=True, truncation=True, max_length=args.tokens, return_tensors="np")
        feed = {n: enc[n].astype(np.int64) for n in ("input_ids", "attention_mask", "token_type_ids")}
        hidden = session.run(None, feed)[0]
        if cls:
            pooled = hidden[:, 0]
        else:
            mask = enc["attention_mask"][..., None].astype(np.float32)
            pooled = (hidden * mask).sum(1) / np.maximum(mask.sum(1), 1e-9)
        if normalize:
            pooled = pooled / np.linalg.norm(pooled, axis=1, keepdims=True)
        return pooled

    check = st.encode(texts[:4] + ["short text", "x"], batch_size=6)
    got = encode(texts[:4] + ["short text", "x"])
    cos = (check * got).sum(1) / np.linalg.norm(check, axis=1) / np.linalg.norm(got, axis=1)
    if cos.min() < 0.999:
        print(f"warning: ONNX export disagrees with sentence-transformers (cos {cos.min():.4f})",
              file=sys.stderr)
    for b in batches:
        start = time.perf_counter()
        for i in range(0, len(texts), b):
            encode(texts[i:i + b])
        s = time.perf_counter() - start
        print(f"onnxruntime {name} {b} {len(texts)} {s:.3f} "
              f"{len(texts) / s:.1f} {len(texts) * args.tokens / s:.0f}", flush=True)


if __name__ == "__main__":
    main()

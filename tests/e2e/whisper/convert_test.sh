#!/usr/bin/env bash
# The Whisper models that server/scripts/fetch-whisper.sh converted from CTranslate2's format
# transcribe for real: whisper-cli (built by the same script) runs each on the JFK clip of
# shared/datasets/speech-jfk and the normalised transcript must hold "fellow americans" and
# "ask not what your country can do for you". The multilingual base model must also detect
# English with -l auto, and tiny.en must still get the sentence with Silero VAD on.
#
# Usage: convert_test.sh        (no arguments; registered with CTest)
# Environment:
#   DOCINTEL_DATA_DIR   where fetch-whisper.sh put var/whisper and var/models (default <repo>/var;
#                       `make test` exports it)
#   WHISPER_CLI         whisper-cli to use (default $DOCINTEL_DATA_DIR/whisper/bin/whisper-cli)
#   WHISPER_TEST_AUDIO  the clip (default <repo>/../shared/datasets/speech-jfk/jfk-16k-mono.wav)
#   WHISPER_THREADS     threads per run (default 2)
#   OMP_WAIT_POLICY     default passive: ggml's OpenMP threads otherwise spin, and with other tests
#                       running on the same 2 cores a run takes several times longer
set -euo pipefail
export OMP_WAIT_POLICY="${OMP_WAIT_POLICY:-passive}"

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
data_dir="${DOCINTEL_DATA_DIR:-$repo/var}"
case "$data_dir" in /*) ;; *) data_dir="$repo/$data_dir" ;; esac
cli="${WHISPER_CLI:-$data_dir/whisper/bin/whisper-cli}"
audio="${WHISPER_TEST_AUDIO:-$repo/../shared/datasets/speech-jfk/jfk-16k-mono.wav}"
threads="${WHISPER_THREADS:-2}"
vad_model="$data_dir/models/whisper-vad/ggml-silero.bin"

missing=()
[[ -x "$cli" ]] || missing+=("$cli")
[[ -f "$audio" ]] || missing+=("$audio")
for m in whisper-tiny.en/ggml-model.bin whisper-base/ggml-model.bin whisper-vad/ggml-silero.bin; do
    [[ -f "$data_dir/models/$m" && -f "$data_dir/models/$(dirname "$m")/MODEL_VERSION" ]] \
        || missing+=("$data_dir/models/$m (with MODEL_VERSION)")
done
if ((${#missing[@]})); then
    printf 'convert_test: missing %s\n' "${missing[@]}" >&2
    echo "convert_test: run server/scripts/fetch-whisper.sh (make model) first" >&2
    exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

normalise() { tr '[:upper:]' '[:lower:]' | tr -c 'a-z0-9\n' ' ' | tr -s ' \n' ' '; }

# check NAME MODEL [whisper-cli options...]
check() {
    local name=$1 model=$2; shift 2
    local out="$tmp/$name.txt" err="$tmp/$name.log" text ok=1 phrase
    if ! "$cli" -m "$data_dir/models/$model" -f "$audio" -t "$threads" -nt "$@" >"$out" 2>"$err"; then
        echo "FAIL $name: whisper-cli exited non-zero; its log:" >&2
        tail -n 30 "$err" >&2
        failed=$((failed + 1))
        return 0
    fi
    text=$(normalise <"$out")
    for phrase in "fellow americans" "ask not what your country can do for you"; do
        if [[ "$text" != *"$phrase"* ]]; then
            echo "FAIL $name: the transcript lacks \"$phrase\": $(cat "$out")" >&2
            ok=0
        fi
    done
    if [[ " $* " == *" -l auto "* ]] && ! grep -q "auto-detected language: en " "$err"; then
        echo "FAIL $name: English not detected: $(grep -m1 'auto-detected language' "$err" || echo none)" >&2
        ok=0
    fi
    if [[ " $* " == *" --vad "* ]] && ! grep -q "detected [1-9][0-9]* speech segments" "$err"; then
        echo "FAIL $name: VAD found no speech segment" >&2
        ok=0
    fi
    if ((ok)); then
        echo "ok $name:$(tr -s ' \n' ' ' <"$out")"
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
    fi
}

check tiny.en whisper-tiny.en/ggml-model.bin
check base whisper-base/ggml-model.bin -l en
check base-auto whisper-base/ggml-model.bin -l auto
check tiny.en-vad whisper-tiny.en/ggml-model.bin --vad --vad-model "$vad_model"

echo "convert_test: $passed passed, $failed failed"
((failed == 0))

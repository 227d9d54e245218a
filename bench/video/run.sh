#!/usr/bin/env bash
# Video bench (bench/video/README.md), two parts, every figure a median of RUNS runs (default 3):
#  1. Transcription speed on a 60 s English speech WAV (the shared JFK clip, 11 s, looped and cut
#     at 60 s, 16 kHz mono): the plugin's wrapper (video_transcribe_bench, load and transcription
#     timed apart) and, as the baseline in the same run, whisper-cli with the wrapper's parameters
#     on the same file, for tiny.en (language en) and base (language auto), 2 threads each.
#  2. A 10-minute 640x360 video (five coloured scenes with drawn text, espeak-ng speech looped to
#     fill it) through a real server with the video plugin: upload, then process with tiny.en
#     (transcript_language en, use_subtitles false); wall time from the process request to
#     `completed`, time per progress_step, the server's CPU seconds and peak RSS (VmHWM).
#     E2E_RUNS runs (default 3; one when the first takes over 300 s).
# Inputs are made once under $BUILD_DIR/bench/video/inputs (delete the folder to remake them).
# Usage: bench/video/run.sh  (RUNS, E2E_RUNS, SKIP_ASR=1, SKIP_E2E=1, BUILD_DIR). `make bench-video`.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
build="${BUILD_DIR:-build}"
models="${DOCINTEL_MODELS_DIR:-$repo/var/models}"
runs="${RUNS:-3}"
threads=2
export OMP_WAIT_POLICY=passive  # whisper.cpp's OpenMP threads spin otherwise (fetch-whisper.sh)
cli="$repo/var/whisper/bin/whisper-cli"
vad="$models/whisper-vad/ggml-silero.bin"
font=/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf

nice cmake --build "$build" --target video_transcribe_bench video -j2 >/dev/null
inputs="$build/bench/video/inputs"
mkdir -p "$inputs"

# --- inputs -------------------------------------------------------------------------------------
speech60="$inputs/jfk-60s-16k-mono.wav"
if [[ ! -s $speech60 ]]; then
  ffmpeg -nostdin -loglevel error -y -stream_loop 5 -i ../shared/datasets/speech-jfk/jfk-16k-mono.wav \
    -t 60 -ar 16000 -ac 1 -c:a pcm_s16le "$speech60"
fi

video="$inputs/talk-10min-640x360.mp4"
if [[ ! -s $video ]]; then
  cat >"$inputs/talk.txt" <<'TXT'
Welcome to this short talk about how a small team can keep its documents in order. We will look at
three things: where documents come from, how we find them again, and how we keep them up to date.
First, documents come from everywhere. Some are written by the team, some arrive by email, and
some are recordings of meetings like this one. Each of them should have an owner, a date and a
short summary, so that anyone can tell at a glance what it is about.
Second, finding a document again is the part that usually fails. Folders help for a while, but
they grow without a plan. Search works better when every document has clear titles and when the
words people use to look for it actually appear in it.
Third, documents go out of date. A price list from last year, an old contract, a process that
nobody follows any more. Once a quarter, the owner of each document should read it again and
either update it, mark it as historical, or delete it.
To sum up: give every document an owner, write for the person who will search for it, and review
what you keep. Thank you for listening, and see you in the next session.
TXT
  espeak-ng -v en-us -s 160 -w "$inputs/talk.wav" -f "$inputs/talk.txt"
  scenes=("navy|Scene 1: Where documents come from" "darkgreen|Scene 2: Finding them again"
          "maroon|Scene 3: Keeping them up to date" "indigo|Scene 4: Owners and reviews"
          "darkslategray|Scene 5: Summary and questions")
  args=() graph="" labels=""
  for i in "${!scenes[@]}"; do
    colour=${scenes[$i]%%|*} title=${scenes[$i]#*|}
    args+=(-f lavfi -i "color=c=$colour:s=640x360:r=25:d=120")
    graph+="[$i]drawtext=fontfile=$font:text='${title/:/\\:}':fontsize=30:fontcolor=white:"
    graph+="x=(w-text_w)/2:y=130,drawtext=fontfile=$font:text='Document management 101':"
    graph+="fontsize=22:fontcolor=yellow:x=(w-text_w)/2:y=200[v$i];"
    labels+="[v$i]"
  done
  graph+="${labels}concat=n=${#scenes[@]}:v=1:a=0[v]"
  nice ffmpeg -nostdin -loglevel error -y "${args[@]}" -stream_loop -1 -i "$inputs/talk.wav" \
    -filter_complex "$graph" -map "[v]" -map "${#scenes[@]}:a" -t 600 \
    -c:v libx264 -preset veryfast -crf 28 -pix_fmt yuv420p \
    -c:a aac -b:a 96k -ar 44100 -ac 2 -movflags +faststart "$video"
fi

if pgrep -x ninja >/dev/null || pgrep -x cc1plus >/dev/null || pgrep -f "ctest --test-dir" >/dev/null; then
  echo "warning: a build or test run is using the CPU; the figures will be slower" >&2
fi
echo "# bench-video $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"

# --- 1. transcription: the wrapper and whisper-cli on the same file ------------------------------
if [[ -z ${SKIP_ASR:-} ]]; then
  echo "## 1. transcription of $speech60 ($threads threads, median of $runs runs)"
  for spec in "whisper-tiny.en en" "whisper-base auto"; do
    read -r model lang <<<"$spec"
    echo "### $model, language $lang"
    ours=$("$build/bench/video/video_transcribe_bench" "$speech60" "$models" "$lang" \
      --runs "$runs" --threads $threads --text "$inputs/ours-$model.txt")
    grep -v '^RESULT' <<<"$ours"
    # whisper-cli with transcriber.cpp's parameters: greedy (-bs 1; the CLI's default is a beam
    # of 5), best_of 5 and temperature fallback (defaults of both), no_context (whisper's
    # default), token timestamps (the CLI sets them for -ojf, whose JSON goes to a scratch file),
    # suppress non-speech tokens (-sns), no GPU; (a) with VAD and the same model, as the wrapper
    # asks for, (b) without, as it actually runs: whisper.cpp 1.8.5 applies params.vad only in
    # whisper_full()/whisper_full_parallel(), and the wrapper calls whisper_full_with_state()
    # (README.md, "Findings").
    for vad_flags in "--vad --vad-model $vad" ""; do
      label="whisper-cli, VAD"; [[ -z $vad_flags ]] && label="whisper-cli, no VAD"
      # shellcheck disable=SC2086
      python3 - "$runs" "$(grep '^RESULT' <<<"$ours")" "$inputs/cli-$model${vad_flags:+-vad}" "$label" \
        "$cli" -t $threads -m "$models/$model/ggml-model.bin" -f "$speech60" -np -l "$lang" -bs 1 \
        -sns -ng -ojf -of "$inputs/cli-$model${vad_flags:+-vad}" $vad_flags <<'PY'
import resource, statistics, subprocess, sys, time
runs, ours, out, label, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
ours = {k: float(v) for k, v in (kv.split("=") for kv in ours.split()[1:])}
audio = ours["audio"]

def children_cpu():
    u = resource.getrusage(resource.RUSAGE_CHILDREN)
    return u.ru_utime + u.ru_stime

walls, cpus = [], []
for run in range(1, runs + 1):
    c0, t0 = children_cpu(), time.perf_counter()
    p = subprocess.run(cmd, capture_output=True)
    wall, cpu = time.perf_counter() - t0, children_cpu() - c0
    if p.returncode != 0:
        sys.exit(f"whisper-cli failed ({p.returncode}): {p.stderr.decode()[-2000:]}")
    walls.append(wall)
    cpus.append(cpu)
    lines = [l.split("]", 1)[-1].strip() for l in p.stdout.decode().splitlines() if l.strip()]
    words = sum(len(l.split()) for l in lines)
    if run == 1:
        open(out + ".txt", "w").write("\n".join(lines) + "\n")
    print(f"  {label} run {run}: {wall:.2f} s wall, {cpu:.2f} s CPU (process: load, read, "
          f"transcribe), {audio / wall:.1f}x real time | {len(lines)} segments, {words} words")
w, c = statistics.median(walls), statistics.median(cpus)
print(f"{label}: median of {runs}: {w:.2f} s wall, {c:.2f} s CPU, {audio / w:.1f}x real time")
print(f"ours / ({label}): load+transcribe wall {ours['total_wall'] / w:.3f}, "
      f"CPU {ours['total_cpu'] / c:.3f} | transcribe only (model already loaded, as in the "
      f"server) wall {ours['wall'] / w:.3f}")
PY
    done
  done
fi

# --- 2. a 10-minute video through the server ------------------------------------------------------
if [[ -z ${SKIP_E2E:-} ]]; then
  # A throw-away database in the test cluster and data folder, removed on exit (as
  # tests/e2e/mcp/lib.sh does), and the server with the video plugin in its plugins folder.
  cluster="${DOCINTEL_TEST_DATABASE_URL:-${DOCINTEL_DATABASE_URL:-postgresql://docintel@127.0.0.1:54329/docintel}}"
  db_name="docintel_bench_video_$(date +%s)$$"
  work=$(mktemp -d)
  server_pid=
  cleanup() {
    [[ -n $server_pid ]] && { kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; }
    psql "$cluster" -qc "DROP DATABASE IF EXISTS $db_name WITH (FORCE)" >/dev/null 2>&1 || true
    rm -rf "$work"
  }
  trap cleanup EXIT
  psql "$cluster" -qc "CREATE DATABASE $db_name" >/dev/null
  port=${BENCH_PORT:-18395}
  export DOCINTEL_DATABASE_URL="${cluster%/*}/$db_name" DOCINTEL_DATA_DIR=$work
  export DOCINTEL_PLUGINS_DIR=$work/plugins DOCINTEL_MODELS_DIR=$models
  export DOCINTEL_PORT=$port DOCINTEL_BASE_URL=http://127.0.0.1:$port
  export DOCINTEL_MCP_PORT=$((port + 1)) DOCINTEL_RATE_LIMIT_PER_MINUTE=100000000
  mkdir -p "$work/plugins" && cp "$build/plugins/video.so" "$work/plugins/"
  admin="$build/server/docintel-admin"
  "$admin" migrate >"$work/migrate.log" 2>&1 || { cat "$work/migrate.log" >&2; exit 1; }
  email="bench-video-$(date +%s%N)@example.com"
  "$admin" user create --email "$email" --password bench-password >/dev/null
  token=$("$admin" token --email "$email" --audience rest --ttl 7200 \
    --scope "video:read video:process documents:read")
  "$build/server/docintel-server" >"$work/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 150); do
    curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && break
    sleep 0.1
  done
  duration=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$video")
  echo "## 2. $video ($(du -h "$video" | cut -f1), ${duration%.*} s), tiny.en, through the server"
  status=0
  python3 bench/video/e2e.py "$port" "$token" "$server_pid" "$video" "${E2E_RUNS:-$runs}" || status=$?
  if [[ $status -ne 0 ]]; then
    echo "--- server log (last 30 lines)" >&2
    tail -30 "$work/server.log" >&2
  fi
  exit $status
fi

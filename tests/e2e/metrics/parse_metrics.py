"""Parses a Prometheus text exposition (the file named by argv[1]) with prometheus-client's
parser, the one Prometheus's Python tooling uses, and prints it as JSON for the C++ tests:
{"families": {name: {"type": ..., "samples": [{"name", "labels", "value"}]}}}. A text the
parser refuses exits 1 with the parser's message on stderr."""
import json
import math
import sys

from prometheus_client.parser import text_string_to_metric_families


def main() -> int:
    with open(sys.argv[1], encoding="utf-8") as f:
        text = f.read()
    families = {}
    try:
        for family in text_string_to_metric_families(text):
            families[family.name] = {
                "type": family.type,
                "help": family.documentation,
                "samples": [
                    {
                        "name": s.name,
                        "labels": s.labels,
                        "value": s.value if math.isfinite(s.value) else str(s.value),
                    }
                    for s in family.samples
                ],
            }
    except Exception as e:  # the parser's ValueError and friends
        print(f"unparseable exposition: {e}", file=sys.stderr)
        return 1
    json.dump({"families": families}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""A synthetic reader for the differential tests (standard library only):
strict, except that it ignores bytes after the declared payload, as many
real readers do.

    lenient.py FILE            one-shot
    lenient.py --persistent    persistent (protocol 3)
"""
import json
import sys

from fake import Reject, read  # the same little reader, beside this file


def answer(path):
    try:
        return read(path, ignore_trailing=True), 0
    except Reject as e:
        return {"error": {"message": str(e)}}, 1


if __name__ == "__main__":
    if sys.argv[1] == "--persistent":
        print(json.dumps({"protocol": 3}), flush=True)
        for line in sys.stdin:
            req = json.loads(line)
            doc, _ = answer(req["file"])
            print(json.dumps(dict(doc, id=req["id"])), flush=True)
    else:
        doc, code = answer(sys.argv[1])
        print(json.dumps(doc))
        sys.exit(code)

"""A fake engine process that breaks the engine protocol as told (argv[1]).

It serves the reference engine over the protocol, like `phasecert serve`,
except for its fault, which strikes at the second `perform` of a game (or
at `stop`): the suite must give one engine-error verdict with context and go
on. Faults: crash, hang, garbage, partial, wrong-id, twice, child-stdout,
silent-stop, huge-memory, bad-field, none.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from adapters.reference import ReferenceEngine
from conformance import wire
from conformance.cli.serving import engine_info

FAULT = sys.argv[1] if len(sys.argv) > 1 else "none"


def send(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


def main() -> None:
    engine = ReferenceEngine(name="faulty")
    game = None
    performs = 0
    for line in sys.stdin:
        request = wire.decode_request(wire.parse_line(line))
        reply: object
        if isinstance(request, wire.Hello):
            reply = wire.HelloReply(request.id, wire.PROTOCOL_VERSION, engine_info(engine))
        elif isinstance(request, wire.Start):
            game, performs = engine.start(request.setup), 0
            reply = wire.ObservationReply(request.id, game.observe())
        elif isinstance(request, wire.Stop):
            if FAULT == "silent-stop":
                return
            send(wire.encode(wire.StopReply(request.id, True)))
            return
        else:
            performs += 1
            reply = wire.ObservationReply(request.id, game.perform(request.action))
            if performs == 2 and fault(request.id, reply):
                continue
        send(wire.encode(reply))


def fault(request_id: int, reply: object) -> bool:
    """Commit the fault; True if the reply is not to be sent as usual."""
    print(f"faulty engine: committing {FAULT} at request {request_id}", file=sys.stderr)
    sys.stderr.flush()
    if FAULT == "crash":
        os._exit(3)
    if FAULT == "hang":
        time.sleep(3600)
    if FAULT == "garbage":
        send("Exception in thread main: NullPointerException\n")
        return True
    if FAULT == "partial":
        send(wire.encode(reply)[:25])
        time.sleep(3600)
    if FAULT == "wrong-id":
        send(json.dumps({**json.loads(wire.encode(reply)), "id": request_id + 7}) + "\n")
        return True
    if FAULT == "twice":
        send(wire.encode(reply))
        return False
    if FAULT == "child-stdout":
        subprocess.run([sys.executable, "-c", "print('hello from a child process')"], check=True)
        return False
    if FAULT == "bad-field":
        data = json.loads(wire.encode(reply))
        data["observation"]["permanents"][0]["zone"] = "library"
        send(json.dumps(data) + "\n")
        return True
    if FAULT == "huge-memory":
        hog = []
        while True:
            hog.append(bytearray(64 * 1024 * 1024))
    return False


if __name__ == "__main__":
    main()

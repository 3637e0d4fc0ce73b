"""The reference point for the benchmarks: a bare Python line relay that inspects nothing."""

import subprocess
import sys
import threading


def pump(source, sink) -> None:
    for line in iter(source.readline, b""):
        sink.write(line)
        sink.flush()
    sink.close()


def main() -> int:
    server = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    threading.Thread(target=pump, args=(sys.stdin.buffer, server.stdin), daemon=True).start()
    pump(server.stdout, sys.stdout.buffer)
    return server.wait()


if __name__ == "__main__":
    raise SystemExit(main())

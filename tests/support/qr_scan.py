"""Read a QR code drawn in a terminal back, as a phone's scanner would: zbar, not our own code.

The drawing is the one qrcode's `print_ascii(tty=True)` makes: two modules a character (upper and
lower half blocks), white foreground for light modules on a black background for dark ones.
"""

import re
import shutil
import subprocess
from pathlib import Path

_COLOURS = re.compile(r"\x1b\[[0-9;]*m")
# Each character's (upper, lower) modules, 1 for dark: the white foreground is the light part.
_HALVES = {"\u2588": (0, 0), "\u2584": (1, 0), "\u2580": (0, 1), "\xa0": (1, 1)}
QUIET = 4
"""Light modules around the code, as the QR standard asks for (the drawing keeps fewer)."""
SCALE = 4


def scanner() -> str | None:
    """zbarimg, where it is installed (.ci/run installs zbar-tools)."""
    return shutil.which("zbarimg")


def modules(output: str) -> list[list[int]]:
    """The rows of modules of the QR code drawn in `output` (its lines of half blocks)."""
    rows: list[list[int]] = []
    for line in output.splitlines():
        plain = _COLOURS.sub("", line)
        if plain and all(ch in _HALVES for ch in plain):
            rows.append([_HALVES[ch][0] for ch in plain])
            rows.append([_HALVES[ch][1] for ch in plain])
    assert rows, f"no QR code was drawn:\n{output}"
    return rows


def scan(output: str, workdir: Path) -> str:
    """What a scanner reads from the QR code drawn in `output`."""
    rows = modules(output)
    width = len(rows[0]) + 2 * QUIET
    padded = (
        [[0] * width] * QUIET
        + [[0] * QUIET + row + [0] * QUIET for row in rows]
        + [[0] * width] * QUIET
    )
    lines = ["P1", f"{width * SCALE} {len(padded) * SCALE}"]
    for row in padded:
        lines += [" ".join(str(bit) for bit in row for _ in range(SCALE))] * SCALE
    image = workdir / "qr.pbm"
    image.write_text("\n".join(lines) + "\n")
    found = subprocess.run(
        [scanner() or "zbarimg", "--quiet", "--raw", str(image)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert found.returncode == 0, found.stderr
    return found.stdout.strip()

"""The service unit that runs the station under its account: systemd on Linux, launchd on macOS."""

import sys
from xml.sax.saxutils import escape

from .layout import LAUNCHD_LABEL, Layout

NICE = -10
"""The station's scheduling priority (a nice value): above the user's processes.

Every proxy write and every hook event waits for the station's answer, so on a busy machine the
agents' own processes must not take its core while it holds their work: at the users' priority,
each write it serves waits for a core behind the very processes waiting for that write.
"""

CPU_WEIGHT = 1000
"""The station's CPU weight under systemd (default 100): its own share of the machine.

A priority orders processes against each other, so an agent that starts many busy processes
still outnumbers the station. A weight makes systemd turn on the kernel's CPU controller down to
the station's control group: the CPU is then shared among groups first (the system's services,
the users' sessions) and among processes only inside them, so the station keeps its share
however many processes the agent runs, and comes before other services within its own.
"""


def command(layout: Layout) -> list[str]:
    """What the unit runs: this interpreter, isolated from PYTHONPATH and the user's site-packages."""
    return [
        sys.executable,
        "-I",
        "-m",
        "lazaretto.app",
        "station",
        "run",
        "--root",
        str(layout.root),
    ]


def systemd_unit(layout: Layout, account: str) -> str:
    """A systemd service for the station."""
    run_dir = layout.run_dir.name if layout.run_dir.parent.as_posix() == "/run" else None
    lines = [
        "[Unit]",
        "Description=Lazaretto station: the quarantine store, out of the agent's reach",
        "After=local-fs.target",
        "",
        "[Service]",
        "Type=simple",
        f"User={account}",
        f"Group={account}",
        "ExecStart=" + " ".join(command(layout)),
        f"Nice={NICE}",
        f"CPUWeight={CPU_WEIGHT}",
        "Restart=on-failure",
        "UMask=0077",
        "NoNewPrivileges=yes",
        "PrivateTmp=yes",
        "ProtectSystem=full",
    ]
    if run_dir:
        # /run is emptied at boot: systemd makes the socket's directory again, owned by the account.
        lines += [f"RuntimeDirectory={run_dir}", "RuntimeDirectoryMode=0755"]
    lines += ["", "[Install]", "WantedBy=multi-user.target", ""]
    return "\n".join(lines)


def launchd_plist(layout: Layout, account: str) -> str:
    """A launchd daemon for the station."""
    arguments = "\n".join(f"    <string>{escape(part)}</string>" for part in command(layout))
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>Label</key>
  <string>{LAUNCHD_LABEL}</string>
  <key>UserName</key>
  <string>{escape(account)}</string>
  <key>ProgramArguments</key>
  <array>
{arguments}
  </array>
  <key>RunAtLoad</key>
  <true/>
  <key>KeepAlive</key>
  <true/>
  <key>Umask</key>
  <integer>63</integer>
  <key>Nice</key>
  <integer>{NICE}</integer>
</dict>
</plist>
"""

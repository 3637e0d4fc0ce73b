"""The program classes the hooks' shell reader and its judges go by: one table per class, to be read by a reviewer.

The reader (`shell.py`) uses the classes that run other code (wrappers, shells, interpreters,
schedulers); the judges use the rest: `commands.py` the human verbs, `builtins.py` the programs that
reach the network. A program in no table is an ordinary program: its arguments are data.
"""

import re
from dataclasses import dataclass

# -- human verbs ------------------------------------------------------------------------------

# Only a person at a terminal may run these (they clear, show or trust what the agent was kept from).
HUMAN_VERBS = frozenset({"approve", "untaint", "show", "release", "trust", "review", "auth"})
# `lazaretto pin accept|reject` too: they decide a drifted server surface.
HUMAN_PIN_VERBS = frozenset({"accept", "reject"})
# These take Lazaretto out of the client's configuration.
DISARMING_VERBS = frozenset({"unwrap", "uninstall"})
# The client starts this one, from its MCP configuration. Started by the agent, a proxy would
# record itself as serving a server the client runs without one, and the hooks would stop gating it.
CLIENT_VERBS = frozenset({"proxy"})
# Programs that only print or search their arguments: a `lazaretto approve` written inside one of
# their arguments is text, not a command (everywhere else it is refused).
PRINTS_ITS_ARGUMENTS = frozenset(
    """echo printf grep egrep fgrep rg ag ack cat less more head tail wc sort uniq diff cmp test [
    true false : ls stat file jq yq tree du basename dirname realpath readlink""".split()
)
# Programs that copy or link files: given the lazaretto executable, they make it runnable under
# another name, which no rule here could follow.
COPIES_FILES = frozenset("cp ln install mv rsync".split())

# -- programs that run other code -------------------------------------------------------------

SHELLS = frozenset("sh bash dash zsh ksh mksh ash fish tcsh csh yash posh rbash".split())
# Shell options that take a separate value (so the value is not read as a script).
SHELL_VALUED_OPTIONS = frozenset({"-o", "+o", "-O", "+O", "--rcfile", "--init-file"})


@dataclass(frozen=True)
class Wrapper:
    """A program that runs another command: how to find that command among its arguments."""

    valued: frozenset[str] = frozenset()  # options that take a separate value
    positionals: int = 0  # operands before the command (timeout's duration, taskset's mask)
    line_options: frozenset[str] = frozenset()  # options whose value is a whole shell line
    runs_rest: bool = True  # the words after the options are the command (`su USER` is not)
    joins: bool = False  # the words after the options are joined into one shell line
    open_tail: bool = False  # standard input adds arguments to the command (xargs)
    placeholders: frozenset[str] = frozenset()  # options naming a token that input replaces


def _w(valued: str = "", **kwargs) -> Wrapper:
    lines = frozenset(kwargs.pop("lines", "").split())
    return Wrapper(frozenset(valued.split()), line_options=lines, **kwargs)


WRAPPERS: dict[str, Wrapper] = {
    "sudo": _w("-u -g -C -D -h -p -r -t -U -T --user --group --chdir --prompt --host"),
    "doas": _w("-u -C"),
    "nohup": _w(),
    "time": _w("-f -o --format --output"),
    "builtin": _w(),
    "command": _w(),
    "exec": _w("-a"),
    "nice": _w("-n --adjustment"),
    "setsid": _w(),
    "stdbuf": _w("-i -o -e"),
    "chronic": _w(),
    "ionice": _w("-c -n -p"),
    "unbuffer": _w(),
    "caffeinate": _w("-t -w"),
    "taskset": _w(positionals=1),
    "flock": _w("-w -E", positionals=1, lines="-c --command"),
    "chroot": _w(positionals=1),
    "torsocks": _w(),
    "proxychains": _w("-f"),
    "proxychains4": _w("-f"),
    "systemd-run": _w("-u --unit -p --property -E --setenv -M --machine --slice"),
    "nsenter": _w("-t --target"),
    "unshare": _w(),
    "firejail": _w(),
    "strace": _w("-o -e -p -s -u"),
    "ltrace": _w("-o -e -p -s -u"),
    "busybox": _w(),  # `busybox wget URL`: the applet is the program
    "timeout": _w("-s -k --signal --kill-after", positionals=1),
    "watch": _w("-n --interval", joins=True),  # watch runs its words through `sh -c`
    "eval": _w(joins=True),
    "xargs": _w(
        "-a -d -E -e -L -l -n -P -s --arg-file --max-args --max-procs --delimiter --max-lines",
        open_tail=True,
        placeholders=frozenset({"-I", "-i", "--replace"}),
    ),
    "parallel": _w("-j --jobs -S --sshlogin", open_tail=True),
    "su": _w(
        "-s --shell -g --group -G -w", lines="-c --command --session-command", runs_rest=False
    ),
    "runuser": _w("-u --user -g --group -G -s --shell", lines="-c --command"),
    "script": _w("-t -T -I -O -B -E", lines="-c --command", runs_rest=False),
    "sg": _w(positionals=1, lines="-c", joins=True),
}

# Programs that read a shell script from standard input or a file operand and run it later.
SCHEDULERS = frozenset({"at", "batch"})
# crontab's lines are schedules: five time fields (or one `@reboot`-like word), then a command.
CRONTAB = "crontab"

# tmux commands whose operands are shell lines, and those that type their operands as keys.
TMUX_RUNS = frozenset(
    """new-session new new-window neww split-window splitw respawn-pane respawnp respawn-window
    respawnw run-shell run display-popup popup pipe-pane pipep if-shell if""".split()
)
TMUX_TYPES = frozenset({"send-keys", "send"})
# tmux options (of the server and of those commands) that take a value.
TMUX_VALUED = frozenset("-L -S -f -t -s -c -n -N -F -e -x -y -w -h -T -b".split())

# Runners whose subcommand runs a program: `uv run X`, `npx X`, `poetry run X`...
# ("" means the program follows the runner's own options directly.)
RUNNERS: dict[str, frozenset[str]] = {
    "uv": frozenset({"run", "tool"}),
    "uvx": frozenset({""}),
    "pipx": frozenset({"run"}),
    "npx": frozenset({""}),
    "bunx": frozenset({""}),
    "pnpm": frozenset({"dlx", "exec"}),
    "yarn": frozenset({"dlx", "exec"}),
    "poetry": frozenset({"run"}),
    "pdm": frozenset({"run"}),
    "hatch": frozenset({"run"}),
    "rye": frozenset({"run"}),
    "conda": frozenset({"run"}),
    "mamba": frozenset({"run"}),
    "direnv": frozenset({"exec"}),
    "nix": frozenset({"run", "shell"}),
}
RUNNER_VALUED = frozenset({"--from", "--with", "-p", "--package", "-n"})
# `find ... -exec CMD ... ;` runs CMD for every file.
FIND_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})


@dataclass(frozen=True)
class Interpreter:
    """A language runtime: the options that take inline code, and how its short options combine."""

    code_options: frozenset[str]  # `-c CODE`, `-e CODE`, `--eval CODE`
    short_valued: str = (
        ""  # short options with a value (`-W arg`); a code option among them ends a cluster
    )
    code_first: bool = False  # awk: the first operand is the program
    subcommand: str = ""  # deno: `deno eval CODE`
    opaque_options: frozenset[str] = frozenset()  # code the hook cannot read (base64-encoded)
    fold_case: bool = False  # PowerShell's options are case-insensitive


_ENCODED = frozenset({"-encodedcommand", "-enc", "-ec", "-e"})
INTERPRETERS: dict[str, Interpreter] = {
    "python": Interpreter(frozenset({"-c"}), short_valued="cmWX"),
    "node": Interpreter(frozenset({"-e", "--eval", "-p", "--print", "-pe"}), short_valued="er"),
    "perl": Interpreter(frozenset({"-e", "-E"}), short_valued="eEIMmx"),
    "ruby": Interpreter(frozenset({"-e"}), short_valued="eIrCEF"),
    "php": Interpreter(frozenset({"-r"}), short_valued="rdcfz"),
    "lua": Interpreter(frozenset({"-e"}), short_valued="el"),
    "rscript": Interpreter(frozenset({"-e"}), short_valued="e"),
    "osascript": Interpreter(frozenset({"-e"}), short_valued="e"),
    "bun": Interpreter(frozenset({"-e", "--eval", "-p", "--print"})),
    "deno": Interpreter(frozenset(), subcommand="eval"),
    "pwsh": Interpreter(frozenset({"-c", "-command"}), opaque_options=_ENCODED, fold_case=True),
    "powershell": Interpreter(
        frozenset({"-c", "-command"}), opaque_options=_ENCODED, fold_case=True
    ),
    "awk": Interpreter(frozenset(), short_valued="fvF", code_first=True),
}
# Names that run one of the interpreters above (`python3.12`, `gawk`, `nodejs`).
INTERPRETER_ALIASES = {
    "nodejs": "node",
    "gawk": "awk",
    "mawk": "awk",
    "nawk": "awk",
    "busybox-awk": "awk",
    "php-cli": "php",
    "luajit": "lua",
}
_PYTHON = re.compile(r"^(?:python|pypy)[0-9.]*$|^py$")


def interpreter(name: str) -> Interpreter | None:
    """The interpreter a program name runs, if it is one."""
    if _PYTHON.match(name):
        return INTERPRETERS["python"]
    return INTERPRETERS.get(INTERPRETER_ALIASES.get(name, name))


# -- programs that reach the network ----------------------------------------------------------

# Whose whole purpose is talking to another machine: outbound when tainted, exposure when they print.
NETWORK_PROGRAMS = frozenset(
    """curl wget nc ncat netcat socat telnet ssh scp sftp ftp tftp lftp aria2c axel lynx w3m links
    elinks http https httpie xh curlie grpcurl websocat wscat mosh sshpass smbclient ldapsearch
    mail mailx sendmail mutt msmtp swaks nmap hping3 nping""".split()
)
# DNS and reachability tools: a lookup of `SECRET.evil.example` carries data to evil's name server.
DNS_TOOLS = frozenset(
    """ping ping6 dig nslookup host drill kdig delv traceroute traceroute6 tracepath mtr whois
    arping fping""".split()
)
# `getent DATABASE KEY` asks the resolver only for these databases.
GETENT_RESOLVES = frozenset({"hosts", "ahosts", "ahostsv4", "ahostsv6", "services", "networks"})
# `resolvectl query NAME`, `openssl s_client -connect HOST`: subcommands that connect.
NETWORK_SUBCOMMANDS: dict[str, frozenset[str]] = {
    "openssl": frozenset({"s_client", "s_time", "ocsp"}),
    "resolvectl": frozenset({"query", "service", "openpgp", "tlsa"}),
    "gnutls-cli": frozenset({""}),
    # Anything run in a container reaches the network unless told otherwise, and registries too.
    "docker": frozenset(
        {
            "run",
            "exec",
            "create",
            "start",
            "build",
            "buildx",
            "compose",
            "push",
            "pull",
            "login",
            "cp",
        }
    ),
    "podman": frozenset(
        {"run", "exec", "create", "start", "build", "compose", "push", "pull", "login", "cp"}
    ),
    "nerdctl": frozenset({"run", "exec", "create", "start", "build", "compose", "push", "pull"}),
    "kubectl": frozenset({""}),  # every kubectl command talks to a cluster
    "oc": frozenset({""}),
    # Cloud storage and platform clients: every command talks to the provider (or to the
    # endpoint an option names).
    "aws": frozenset({""}),
    "gcloud": frozenset({""}),
    "gsutil": frozenset({""}),
    "az": frozenset({""}),
    "s3cmd": frozenset({""}),
    "rclone": frozenset({""}),
    # Publishing a package uploads the project's files to a registry.
    "npm": frozenset({"publish"}),
    "yarn": frozenset({"publish", "npm"}),
    "pnpm": frozenset({"publish"}),
    "cargo": frozenset({"publish"}),
    "gem": frozenset({"push"}),
    "twine": frozenset({"upload", "register"}),
    "poetry": frozenset({"publish"}),
    "uv": frozenset({"publish"}),
    "hatch": frozenset({"publish"}),
    "flit": frozenset({"publish"}),
    "pdm": frozenset({"publish"}),
}
# Container tools: the command run inside the container is read as a command too.
CONTAINERS = frozenset({"docker", "podman", "nerdctl", "kubectl", "oc"})
# rsync reaches another machine only with a `host:path` or `rsync://` operand: a colon before
# any slash (`host:/abs/path` too).
REMOTE_OPERAND = re.compile(r"^(?:[^/\s]*@)?[A-Za-z0-9.\-\[\]]+:|^rsync://")
# git subcommands that send the repository somewhere, and those that fetch from a remote.
GIT_SENDS = frozenset({"push", "send-email", "request-pull"})
GIT_FETCHES = frozenset({"clone", "fetch", "pull", "ls-remote", "submodule", "archive"})
# gh subcommands that only read (anything else may write to GitHub).
GH_READS = frozenset(
    {"view", "list", "status", "diff", "checks", "clone", "checkout", "search", "browse"}
)
# Package managers: given a URL or a VCS spec (rather than a registry name), they fetch from it.
PACKAGE_MANAGERS = frozenset(
    """pip pip3 pipx uv uvx npm npx yarn pnpm bun bunx gem bundle cargo go composer poetry pdm
    conda mamba deno brew""".split()
)
# A URL or VCS spec among a package manager's words (`git+https://`, `git@host:`, `github:o/r`).
PACKAGE_SPEC = re.compile(
    r"(?:^|=)(?:[A-Za-z][A-Za-z0-9+.\-]*://|git\+|(?:git|hg|svn|bzr)@|[\w.\-]+@[\w.\-]+:"
    r"|(?:github|gitlab|bitbucket|gist):)"
)
# `go get` / `go install` name modules by host: `evil.example/x@v1`.
GO_FETCHES = frozenset({"get", "install", "mod", "run"})
GO_MODULE = re.compile(r"^[a-z0-9\-]+(?:\.[a-z0-9\-]+)+/")
# Bash's own network: redirections to these paths open a socket.
NETWORK_PATH = re.compile(r"^/dev/(?:tcp|udp)/([^/]+)/")
# Inline code that reaches the network: standard-library and common client modules per language,
# URLs, and the network programs above run from inside the code.
NETWORK_CODE = re.compile(
    r"[A-Za-z][A-Za-z0-9+.\-]*://"
    r"|\b(?:http\.client|urllib\d?|socket|ssl|requests|httpx|aiohttp|ftplib|smtplib|poplib|imaplib"
    r"|telnetlib|xmlrpc|websockets?|paramiko|pycurl|open_connection|dns\.resolver)\b"
    r"|require\(\s*['\"](?:node:)?(?:https?|http2|net|dgram|tls|dns|undici|axios|node-fetch|ws)['\"]"
    r"|from\s+['\"](?:node:)?(?:https?|http2|net|dgram|tls|dns|undici|axios|node-fetch|ws)['\"]"
    r"|\bfetch\s*\(|XMLHttpRequest|WebSocket|IO::Socket|LWP|HTTP::Tiny|Net::|net/http|open-uri"
    r"|TCPSocket|URI\.open|curl_|fsockopen|stream_socket_client|file_get_contents|/inet/"
    # Programs the code may run (only names that are not also common words in code).
    r"|\b(?:curl|wget|ncat|netcat|socat|telnet|ssh|scp|sftp|rsync|aria2c|nslookup|dig|ping)\b",
    re.IGNORECASE,
)

# -- the tainted shell's table ------------------------------------------------------------------

# While a session is tainted, a shell line runs only if every program in it is known to only read
# locally (see `local_reads`): these, with the options that would make one of them write, run a
# program, or open a pager (`sort --compress-program`, `rg --pre`, `find -delete`) refused.
# `taint.read_only_programs` in the policy adds to it.
READS_LOCALLY: dict[str, frozenset[str]] = {
    name: frozenset()
    for name in """ls cat head tail wc grep egrep fgrep stat file du df realpath readlink basename
    dirname pwd cd pushd popd echo printf true false test [ : which type cmp diff md5sum sha1sum
    sha256sum sha512sum shasum b2sum cksum nl cut tr column tac rev jq whoami id uname printenv
    tty locale nproc set shift exit return""".split()
}
READS_LOCALLY |= {
    "find": frozenset("-delete -fprint -fprint0 -fprintf -fls".split()),
    "sort": frozenset("-o --output --compress-program".split()),
    "rg": frozenset("--pre --pre-glob".split()),
    "tree": frozenset({"-o", "-R"}),  # -R writes a listing into every directory
    "date": frozenset({"-s", "--set"}),
    "file": frozenset({"-C", "--compile"}),
    "printf": frozenset({"-v"}),  # `printf -v PATH ...` sets a variable, as an assignment does
}
# Programs that run another command of the line and nothing else (that command is judged on its
# own), with the options that would make them do more (`time -o FILE` writes it).
RUNS_ONLY_ITS_COMMAND: dict[str, frozenset[str]] = {
    "nice": frozenset(),
    "timeout": frozenset(),
    "stdbuf": frozenset(),
    "command": frozenset(),
    "builtin": frozenset(),
    "xargs": frozenset(),
    "time": frozenset({"-o", "--output", "-a", "--append"}),
    "env": frozenset(),  # an assignment among its words changes what the command loads
    # A shell that runs only what the reader read through, and no start-up file a word of the
    # line names (a login shell's own files, which the clients' `bash -lc` reads on every
    # command, are a limit the docs name).
    "sh": frozenset({"-i", "--rcfile", "--init-file"}),
    "bash": frozenset({"-i", "--rcfile", "--init-file"}),
    "dash": frozenset({"-i"}),
    "zsh": frozenset({"-i"}),
    "source": frozenset(),
    ".": frozenset(),
}
# git's verbs that only read the repository, and git's options that would make them do more:
# write a file, run an external diff or a pager, or read another configuration.
GIT_READS = frozenset(
    """status log diff show blame rev-parse ls-files ls-tree cat-file describe shortlog rev-list
    merge-base show-ref""".split()
)
# git's own options (before the verb) that run something else or read another configuration.
GIT_REFUSED_OPTIONS = frozenset(
    "-c --config-env --exec-path -p --paginate --git-dir --work-tree".split()
)
# A read verb's options that write a file, or run an external diff, a filter or gpg.
GIT_READ_REFUSED_OPTIONS = frozenset(
    "--output --ext-diff --textconv --open-files-in-pager --show-signature".split()
)
# git's configuration keys whose value git runs as a program (or fetches with, for a partial
# clone's missing objects) when it reads a repository: set, a read is no longer only local.
GIT_RUNS_FROM_CONFIG = (
    r"^(core\.(fsmonitor|pager|hookspath|sshcommand|askpass)|pager\..*|diff\.external"
    r"|diff\..*\.(command|textconv)|filter\..*\.(clean|smudge|process)|gpg\.(.*\.)?program"
    r"|log\.showsignature|extensions\.partialclone|remote\..*\.(promisor|partialclonefilter))$"
)
# Values of those keys that `git lfs install` writes: git-lfs's filters hash files locally.
GIT_KNOWN_FILTERS = frozenset(
    {"git-lfs clean -- %f", "git-lfs smudge -- %f", "git-lfs filter-process"}
)
# Variables a read-only command may be given before it (`LC_ALL=C sort`): they change no program
# it loads.
HARMLESS_ASSIGNMENTS = frozenset("LC_ALL LANG LANGUAGE TZ COLUMNS NO_COLOR TERM".split())

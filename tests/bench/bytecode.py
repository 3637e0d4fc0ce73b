"""Start-up is timed as an installed package has it: with the bytecode of its modules compiled.

pip compiles a package's modules when it installs them, and an editable install writes their
bytecode on first import, except where PYTHONDONTWRITEBYTECODE is set (some sandboxes and CI
machines set it). There every process would compile each module it imports from source again:
some 20 ms of a hook's 80-90. Benchmarks that time a process from its start call `compile_lazaretto`
first; what they start then reads the compiled files, as it would on a user's machine.
"""

import compileall

import lazaretto.app
import lazaretto.proxy
import lazaretto.store


def compile_lazaretto() -> None:
    """Write the bytecode of every Lazaretto module beside its source (where it is not current)."""
    for package in (lazaretto.app, lazaretto.proxy, lazaretto.store):
        for folder in package.__path__:
            compileall.compile_dir(folder, quiet=1)

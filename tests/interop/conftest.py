"""The interop suite: real servers from npm and PyPI, spoken to by the official SDK client."""

import pytest

# Pair.same compares what the client read from both servers: show the difference when it fails.
pytest.register_assert_rewrite("support.interop")

"""`python -m lazaretto.app` runs the `lazaretto` command."""

from .cli import main

raise SystemExit(main())

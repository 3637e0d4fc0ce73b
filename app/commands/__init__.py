"""One module per `lazaretto` subcommand that is not the proxy: `configure(parser)` and `run(args)`."""

"""One module per `lazaretto` subcommand: `configure(parser)` and `run(args)`, imported only when it runs."""

"""One module per `cbrig` subcommand, imported only when that subcommand runs."""

"""The review app and the command line; the `lazaretto` console script starts in `cli`."""

"""Helpers the test folders share: real processes, terminals, servers, and how results are read."""

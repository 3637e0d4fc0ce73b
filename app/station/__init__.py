"""Installing the station: its account, state, marker and service unit."""

"""The station: one service under its own OS account that owns the store, and its clients."""

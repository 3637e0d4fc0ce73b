"""Pinned server surfaces: what changed since a person last trusted a server stays hidden and refused."""

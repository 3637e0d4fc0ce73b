"""Which of the two ways a store is reached: on the user's own file, or through a station."""

from enum import StrEnum


class Mode(StrEnum):
    """What protects decisions: the station's account boundary, or nothing but the user's own files."""

    EMBEDDED = "embedded"
    STATION = "station"

"""The installed package's version, looked up only when asked for."""


def package_version() -> str:
    """The installed version, or a marker when running from a bare checkout."""
    # Imported here: importlib.metadata is a tenth of a proxy's start-up, and only a few need it.
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("lazaretto")
    except PackageNotFoundError:
        return "0+unknown"

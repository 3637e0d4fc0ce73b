"""What the detection tests ask of a text: whether an untrusted field holding it is withheld."""

from lazaretto.proxy.quarantine.scan import ScanRules, Verdict, scan_text


def withheld(text: str) -> bool:
    """Whether `text`, as an untrusted field with no key, is withheld."""
    return scan_text(text, ScanRules()).verdict == Verdict.WITHHELD

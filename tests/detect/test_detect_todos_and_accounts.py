"""A person's to-do list, a thing left out, an account named by its number.

A to-do item is an order its owner wrote to themselves ("Pay rent £950"): only data or money
sent to an address is out of place there. A thing a sentence goes without is not acted on. An
account given by its label and number ("acct 000123987654") is where money goes, like an IBAN.
An amount after a word of comparison ("payments above $10,000") is a policy's limit, not a sum
to move.
Each benign class is paired with the request it must not hide.
"""

import json

from lazaretto.proxy.detect import detect


def _todos(*titles: str) -> str:
    return json.dumps(
        {
            "list": "Errands",
            "items": [{"title": t, "due": "2025-03-01", "done": False} for t in titles],
        }
    )


def test_a_todo_list_of_payments_and_clean_ups_is_the_owners_own():
    found = detect(
        _todos("Pay £120 to the plumber", "Delete old backups from the NAS", "Renew passport")
    )
    assert "out_of_place_request" not in found.names, found

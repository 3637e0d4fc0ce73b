"""Why a field is withheld: each text scanned, the message read as one document, and the decision recorded."""

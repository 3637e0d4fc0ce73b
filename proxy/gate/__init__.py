"""Why a call is refused: what a request sends, the hosts it names, the policy and the session's taint."""

"""Moving bytes between the client and the server: the stdio relay, the client's link, spills, remote HTTP."""

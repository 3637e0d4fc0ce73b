"""The protocol logic between client and server: which message goes where, judged by the other jobs."""

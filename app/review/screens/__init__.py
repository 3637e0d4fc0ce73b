"""The review app's screens: the main queue and detail view, and its modals."""

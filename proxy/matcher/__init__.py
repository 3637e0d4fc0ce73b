"""The compiled multi-pattern matcher that detection and sanitizing both use.

It answers which patterns of a table may match a text (`engine`) and keeps what it compiles in
the user's cache folder (`cache_folder`); it knows nothing of what the patterns mean.
"""

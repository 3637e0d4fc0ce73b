"""A new self given to the reader, a reply dictated to it, the text before it asked for.

Role hijack and extraction written without the tables' words for "no limits" or "system
prompt": a name given in quotes, an identity or a mode to take on, a phrase to answer with,
the instructions the reader was configured with, the text above repeated word for word. Each
is paired with the look-alike it must not withhold.
"""

"""The Textual review app: what agents were kept from reading, and a person's decisions on it."""

"""The review app's widgets, one module per region of the screen."""

"""The maintainers' diagnostics of Go strength and GTP behaviour (not part of the product):
see README.md here for what each is for and how to run it."""

"""One module per ``cardref`` sub-command."""

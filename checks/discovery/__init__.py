"""Discovery (issue 13): what the texts leave open that nobody wrote down as a variation point."""

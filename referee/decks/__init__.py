"""The default decks of the five games, as data (the compositions of `../shared/rules/*.md`)."""

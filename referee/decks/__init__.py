"""Each game's deck as data (the compositions of `../shared/rules/*.md`) and its definition: everything about
the game that is not its rules, declared once (`referee.registry.GameDefinition`, docs/adding-a-game.md)."""

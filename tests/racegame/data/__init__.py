"""Race to 20's shipped data files (its DATA_PACKAGE): the game brings its own track."""
